/**
 * A decided commit's writes as rows of the control collection, small ones: Chroma's local
 * server gets slower at every later write to a collection that once held rows of tens of KB
 * (measured in docs/chroma-protocol.md), and one intent document per commit was such a row.
 * The plan is JSON with each vector as base64 of its float32 bytes (exact: Chroma keeps float32),
 * cut into parts of at most {@link PART_CHARS} characters, each a row `<intent>/<n>` whose
 * metadata holds the text (`kind: 'plan'`, `intent`, `n`). A plan of at most
 * {@link INLINE_PARTS} parts (an ingest's) is written with the decision, in the control
 * collection; the parts carry no partition flag, so control reads of versions and intents never
 * return them. A larger plan (an import's) goes to the `plans` collection, one request before the
 * decision: megabytes of parts would slow every later read and write of the control collection.
 */
import { StorageError } from 'engram';
import type { ChromaRow, Collections, Write } from './collections';
import { eq } from './where';

/** Characters of plan text per row. */
export const PART_CHARS = 2_000;

export interface PlanText {
  writes: Write[];
  versions: [string, number][];
}

const bytesToBase64 = (bytes: Uint8Array) => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

const base64ToBytes = (text: string): Uint8Array<ArrayBuffer> => {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
};

const toBase64 = (values: readonly number[]) => bytesToBase64(new Uint8Array(Float32Array.from(values).buffer));
const fromBase64 = (text: string): number[] => Array.from(new Float32Array(base64ToBytes(text).buffer));

/** deflate-raw (CompressionStream: Node 18+ and every current browser), as base64. */
async function deflate(text: string): Promise<string> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return bytesToBase64(new Uint8Array(await new Response(stream).arrayBuffer()));
}

async function inflate(text: string): Promise<string> {
  const stream = new Blob([base64ToBytes(text)]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(stream).text();
}

/**
 * The rows holding `plan` for intent `id`: its JSON deflated, as base64 (`z: 1` on every part;
 * the records' JSON shrinks many times (dense vectors by a quarter), and each part row costs the server a row to write
 * and one to delete: 30 rows of 2,000 characters took 110 ms to upsert against 24 ms for 6).
 */
export async function planRows(id: string, plan: PlanText): Promise<ChromaRow[]> {
  const compact = {
    versions: plan.versions,
    writes: plan.writes.map((write) => ('upsert' in write ? { ...write, upsert: write.upsert.map(({ embedding, ...row }) => (embedding ? { ...row, e: toBase64(embedding) } : row)) } : write)),
  };
  const text = await deflate(JSON.stringify(compact));
  const rows: ChromaRow[] = [];
  for (let n = 0; n * PART_CHARS < text.length; n++) rows.push({ id: `${id}/${n}`, metadata: { kind: 'plan', intent: id, n, z: 1, text: text.slice(n * PART_CHARS, (n + 1) * PART_CHARS) } });
  return rows;
}

/** Plans of more parts go to the plans collection, written before the decision (plan-rows.ts header). */
export const INLINE_PARTS = 64;

/** Ids of the plan rows stored for intent `id`, in each collection (any number, also none). */
export async function planIds(collections: Collections, id: string): Promise<{ control: string[]; plans: string[] }> {
  const [control, plans] = await Promise.all(PLAN_TABLES.map(async (table) => (await collections.get(table, { where: eq('intent', id), documents: false })).map((row) => row.id)));
  return { control: control!, plans: plans! };
}

const PLAN_TABLES = ['control', 'plans'] as const;

/**
 * The plan of intent `id`, read back and joined. An intent an earlier engram left holds its
 * plan as its own document, vectors as arrays: read as it is.
 */
export async function readPlan(collections: Collections, id: string): Promise<PlanText> {
  const rows = (await Promise.all(PLAN_TABLES.map((table) => collections.get(table, { where: eq('intent', id) })))).flat();
  const parts = rows.map((row) => ({ n: row.metadata.n, text: row.metadata.text, z: row.metadata.z })).sort((a, b) => Number(a.n) - Number(b.n));
  const damaged = (why: string, cause?: unknown) =>
    new StorageError(`the plan of intent ${id} in the control collection ${why}; delete the intent and its '${id}/…' rows by id if they were written by hand`, cause === undefined ? undefined : { cause });
  if (parts.some((part, i) => part.n !== i || typeof part.text !== 'string')) throw damaged('is missing parts');
  const joined = parts.map((part) => part.text).join('');
  const text = parts.length ? joined : (await collections.get('control', { ids: [id] }))[0]?.document;
  if (!text) throw damaged('is missing');
  let parsed: { versions?: unknown; writes?: unknown };
  try {
    // Parts written before plans were deflated carry no `z`: their text is the JSON itself.
    parsed = JSON.parse(parts[0]?.z === 1 ? await inflate(text) : text) as typeof parsed;
  } catch (error) {
    throw damaged('is not readable JSON', error);
  }
  if (!Array.isArray(parsed.writes) || !Array.isArray(parsed.versions)) throw damaged('has no writes or versions');
  const writes = (parsed.writes as Write[]).map((write) =>
    'upsert' in write
      ? {
          ...write,
          upsert: write.upsert.map((row) => {
            const { e, ...rest } = row as ChromaRow & { e?: string };
            return e === undefined ? rest : { ...rest, embedding: fromBase64(e) };
          }),
        }
      : write,
  );
  return { writes, versions: parsed.versions as [string, number][] };
}
