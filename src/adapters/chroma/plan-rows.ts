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

const toBase64 = (values: readonly number[]) => {
  const bytes = new Uint8Array(Float32Array.from(values).buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

const fromBase64 = (text: string): number[] => {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return Array.from(new Float32Array(bytes.buffer));
};

/** The rows holding `plan` for intent `id`. */
export function planRows(id: string, plan: PlanText): ChromaRow[] {
  const compact = {
    versions: plan.versions,
    writes: plan.writes.map((write) => ('upsert' in write ? { ...write, upsert: write.upsert.map(({ embedding, ...row }) => (embedding ? { ...row, e: toBase64(embedding) } : row)) } : write)),
  };
  const text = JSON.stringify(compact);
  const rows: ChromaRow[] = [];
  for (let n = 0; n * PART_CHARS < text.length; n++) rows.push({ id: `${id}/${n}`, metadata: { kind: 'plan', intent: id, n, text: text.slice(n * PART_CHARS, (n + 1) * PART_CHARS) } });
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
  const parts = rows.map((row) => ({ n: row.metadata.n, text: row.metadata.text })).sort((a, b) => Number(a.n) - Number(b.n));
  const damaged = (why: string, cause?: unknown) =>
    new StorageError(`the plan of intent ${id} in the control collection ${why}; delete the intent and its '${id}/…' rows by id if they were written by hand`, cause === undefined ? undefined : { cause });
  if (parts.some((part, i) => part.n !== i || typeof part.text !== 'string')) throw damaged('is missing parts');
  const text = parts.length ? parts.map((part) => part.text).join('') : (await collections.get('control', { ids: [id] }))[0]?.document;
  if (!text) throw damaged('is missing');
  let parsed: { versions?: unknown; writes?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
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
