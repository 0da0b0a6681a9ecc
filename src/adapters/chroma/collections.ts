/**
 * The Chroma collections one storage uses, and the only code that talks to them: batched
 * (never more than the server's `getMaxBatchSize()` records per request), paged reads, and
 * every failure turned into engram's StorageError naming the server and the next step.
 *
 * Collections (each `collectionPrefix` + name): `memories` holds the vectors (cosine space,
 * precomputed embeddings: no embedding function); the others hold documents only and carry a
 * one-number placeholder vector, since Chroma stores a vector with every record.
 */
import { ChromaClient, type Collection, type Metadata, type Where } from 'chromadb';
import { StorageError } from 'engram';
import { NOTHING, type Filter } from './where';

/** One Chroma record as engram writes it. */
export interface ChromaRow {
  id: string;
  /** Absent: the placeholder vector of a collection without vectors. */
  embedding?: number[];
  document?: string;
  /** `null` removes a key (Chroma's upsert merges metadata into what is there). */
  metadata: Metadata;
}

/** A record read back (what was asked for in `include`). */
export interface ReadRow {
  id: string;
  document: string | null;
  metadata: Metadata;
  embedding?: number[];
  /** `1 − cos`, on query results only. */
  distance?: number;
}

export const TABLES = ['memories', 'inputs', 'control', 'revocations', 'plans'] as const;
export type Table = (typeof TABLES)[number];

/**
 * One write of a commit's plan: rows upserted into a table, existing rows whose metadata is set
 * (`update`: vector and document left as they are, not sent again), or ids removed from it.
 */
export type Write = { table: Table; upsert: ChromaRow[] } | { table: Table; update: ChromaRow[] } | { table: Table; remove: string[] };

const PLACEHOLDER = [1];

/** Test seam: the `failAt`-th write request (upsert or delete batch) fails with StorageError; `count` counts them. */
export interface WriteFaults {
  failAt: number;
  count: number;
}

export interface ChromaConnection {
  host?: string;
  port?: number;
  ssl?: boolean;
  tenant?: string;
  database?: string;
  collectionPrefix?: string;
}

export interface Collections {
  readonly url: string;
  readonly maxBatch: number;
  collection(table: Table): Collection;
  upsert(table: Table, rows: readonly ChromaRow[]): Promise<void>;
  remove(table: Table, ids: readonly string[]): Promise<void>;
  /** Sets metadata keys of one existing row, leaving its document and vector as they are. */
  mark(table: Table, id: string, metadata: Metadata): Promise<void>;
  /** {@link mark} for many rows (each row's `metadata`; its vector and document are not sent). */
  update(table: Table, rows: readonly ChromaRow[]): Promise<void>;
  get(table: Table, request: { ids?: readonly string[]; where?: Filter; embeddings?: boolean; documents?: boolean }): Promise<ReadRow[]>;
  /** The `n` nearest rows to each vector, nearest first (one request for all vectors). */
  query(table: Table, request: { vectors: readonly Float32Array[]; n: number; where?: Filter; ids?: readonly string[]; metadata?: boolean }): Promise<ReadRow[][]>;
  /** Turns a Chroma failure into a StorageError that says what failed and where. */
  fail(action: string, error: unknown): StorageError;
}

/** Connects and opens (creating where missing) every collection of the storage. */
export async function openCollections(connection: ChromaConnection, faults?: WriteFaults): Promise<Collections> {
  const { host = 'localhost', port = 8000, ssl = false, collectionPrefix = 'engram_' } = connection;
  const url = `${ssl ? 'https' : 'http'}://${host}:${port}`;
  const fail = (action: string, error: unknown) =>
    error instanceof StorageError
      ? error
      : new StorageError(
          `Chroma at ${url} failed while ${action}: ${error instanceof Error ? error.message : String(error)}. Check that the server runs and answers GET ${url}/api/v2/heartbeat; nothing of this call was left half-applied.`,
          { cause: error },
        );
  const client = new ChromaClient({ host, port, ssl, ...(connection.tenant ? { tenant: connection.tenant } : {}), ...(connection.database ? { database: connection.database } : {}) });
  const opened = new Map<Table, Collection>();
  let maxBatch: number;
  try {
    maxBatch = await client.getMaxBatchSize();
    for (const table of TABLES) {
      const collection = await client.getOrCreateCollection({
        name: `${collectionPrefix}${table}`,
        embeddingFunction: null,
        configuration: { hnsw: { space: 'cosine' } },
      });
      opened.set(table, collection);
    }
  } catch (error) {
    throw fail('opening its collections', error);
  }
  const collection = (table: Table) => opened.get(table)!;
  return { url, maxBatch, collection, fail, ...operations(collection, maxBatch, fail, faults) };
}

type Operations = Pick<Collections, 'upsert' | 'remove' | 'mark' | 'update' | 'get' | 'query'>;

/**
 * What Chroma's local server (1.x) answers a read that needs a collection's vector index (a `get`
 * that includes embeddings, any `query`) while another client's first write to that collection is
 * being applied: the write has given the collection its dimension, the index is not built yet.
 * Seen in a loop of reads beside one first upsert: 110 of 266 reads failed so. Nothing is wrong
 * with the data, and once that write is applied the same read answers.
 */
const FIRST_WRITE_RACE = /Nothing found on disk/;
/** How long a read waits out {@link FIRST_WRITE_RACE} (a first write of many rows takes longest) before it fails. */
export const FIRST_WRITE_PATIENCE_MS = 10_000;

/**
 * Sends one read, repeating it (pauses 5 ms, doubling up to 250 ms) while the server answers
 * {@link FIRST_WRITE_RACE}, for up to {@link FIRST_WRITE_PATIENCE_MS}; any other failure, and
 * that one past the patience, goes to the caller. Only reads go through here: they change
 * nothing, so sending one again is safe.
 */
export async function readPastFirstWrite<T>(request: () => Promise<T>, patienceMs = FIRST_WRITE_PATIENCE_MS): Promise<T> {
  const start = Date.now();
  for (let pause = 5; ; pause = Math.min(pause * 2, 250)) {
    try {
      return await request();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!FIRST_WRITE_RACE.test(message) || Date.now() - start + pause > patienceMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

function operations(collection: (table: Table) => Collection, maxBatch: number, fail: Collections['fail'], faults?: WriteFaults): Operations {
  async function run<T>(action: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      throw fail(action, error);
    }
  }
  function beforeWrite(table: Table): void {
    if (faults && ++faults.count === faults.failAt) throw new StorageError(`write ${faults.count} (to ${table}) failed: injected by the test`);
  }
  return {
    upsert: (table, rows) =>
      run(`writing ${table}`, async () => {
        for (const batch of chunks(rows, maxBatch)) {
          beforeWrite(table);
          await collection(table).upsert({
            ids: batch.map((row) => row.id),
            embeddings: batch.map((row) => row.embedding ?? PLACEHOLDER),
            metadatas: batch.map((row) => row.metadata),
            documents: batch.map((row) => row.document ?? ''),
          });
        }
      }),
    remove: (table, ids) =>
      run(`deleting from ${table}`, async () => {
        for (const batch of chunks(ids, maxBatch)) {
          beforeWrite(table);
          await collection(table).delete({ ids: [...batch] });
        }
      }),
    update: (table, rows) =>
      run(`writing ${table}`, async () => {
        for (const batch of chunks(rows, maxBatch)) {
          beforeWrite(table);
          await collection(table).update({ ids: batch.map((row) => row.id), metadatas: batch.map((row) => row.metadata) });
        }
      }),
    mark: (table, id, metadata) =>
      run(`writing ${table}`, async () => {
        beforeWrite(table);
        await collection(table).update({ ids: [id], metadatas: [metadata] });
      }),
    get: (table, { ids, where, embeddings = false, documents = true }) =>
      run(`reading ${table}`, async () => {
        if (where === NOTHING || ids?.length === 0) return [];
        const include = [...(documents ? ['documents', 'metadatas'] : []), ...(embeddings ? ['embeddings'] : [])] as ('documents' | 'metadatas' | 'embeddings')[];
        const out: ReadRow[] = [];
        if (ids) {
          for (const batch of chunks(ids, maxBatch)) out.push(...toRows(await readPastFirstWrite(() => collection(table).get({ ids: [...batch], ...(where ? { where } : {}), include }))));
          return out;
        }
        // Paged: a `get` without ids answers at most `limit` rows.
        for (let offset = 0; ; offset += maxBatch) {
          const page = toRows(await readPastFirstWrite(() => collection(table).get({ ...(where ? { where } : {}), limit: maxBatch, offset, include })));
          out.push(...page);
          if (page.length < maxBatch) return out;
        }
      }),
    query: (table, { vectors, n, where, ids, metadata = true }) =>
      run(`searching ${table}`, async () => {
        if (where === NOTHING || n <= 0) return vectors.map(() => []);
        const queryEmbeddings = vectors.map((vector) => Array.from(vector));
        const result = await readPastFirstWrite(() =>
          collection(table).query({
            queryEmbeddings,
            nResults: n,
            ...(where ? { where: where as Where } : {}),
            ...(ids ? { ids: [...ids] } : {}),
            include: metadata ? ['metadatas', 'distances'] : ['distances'],
          }),
        );
        return result.ids.map((ids, q) => ids.map((id, i) => ({ id, document: null, metadata: (result.metadatas[q]?.[i] ?? {}) as Metadata, distance: result.distances[q]?.[i] ?? Number.NaN })));
      }),
  };
}

/** Rows of a `get`; fields it did not include come back empty (the client may leave their arrays out). */
function toRows(result: { ids: string[]; documents?: (string | null)[] | null; metadatas?: (Metadata | null)[] | null; embeddings?: number[][] | null }): ReadRow[] {
  return result.ids.map((id, i) => ({
    id,
    document: result.documents?.[i] ?? null,
    metadata: result.metadatas?.[i] ?? {},
    ...(result.embeddings?.[i] ? { embedding: result.embeddings[i] } : {}),
  }));
}

/** Splits into runs of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
