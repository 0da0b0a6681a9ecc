/**
 * Atomic commits on a server without transactions. The `control` collection holds, per
 * partition, a version document (`v:<key>`), and one intent document per commit in flight;
 * both carry the flag `p:<key>` of every partition they cover, so one `get` reads a set of
 * partitions' versions and intents together.
 *
 * A commit, in this order (the rules the recovery and the readers rely on):
 * 1. claim: write the intent in state `claim` (nothing else written yet);
 * 2. read the control rows of its partitions (the checks' reads went out beside the claim): another live intent there → withdraw the claim
 *    and fail with ConflictError (the caller decides again); a stale one (older than the
 *    lease: its writer died) is finished or withdrawn first. Two claims that see each other
 *    both withdraw: at most one writer per partition passes this step;
 * 3. compare the versions with what the decision was made against, run the caller's checks;
 * 4. mark the intent `apply`, write its plan (every other write, in small rows: plan-rows.ts),
 *    the new versions and the control collection's own rows (the stored inputs), in one
 *    request: from here on the commit is decided, and whoever finds the intent finishes it;
 * 5. apply the writes (upserts and deletes by id: idempotent, so applying twice is applying once);
 * 6. delete the intent and its plan (one request).
 * A crash before 4 leaves a claim (withdrawn: the pre-state); at or after 4, the intent is
 * finished by the next reader, writer or opener (the post-state).
 *
 * Readers use the seqlock of {@link consistentRead}: control rows before and after the read,
 * equal versions and no decided intent, or read again.
 */
import type { Metadata } from 'chromadb';
import { ConflictError } from 'engram';
import type { ChromaRow, Collections, ReadRow, Table, Write } from './collections';
import { INLINE_PARTS, planIds, planRows, readPlan } from './plan-rows';
import { HELD, holdsPending, inputOf } from './rows';
import { eq, oneOf, or, type Filter } from './where';

/** One write of a commit. */
export type { Write } from './collections';

export interface Plan {
  /** Partition keys the commit writes (their versions go up by one). */
  partitions: readonly string[];
  /** Versions the decision was made against; a mismatch fails with ConflictError. */
  expected: ReadonlyMap<string, number>;
  /**
   * The checks' reads, sent beside the claim's upsert: when the claim read that follows shows
   * the expected versions and no other intent, nothing was written on these partitions while they
   * ran. A writer can only write after its decision, which bumps the versions; one that decided
   * before the caller's versions were read (an `ensure`, which waits out decided intents) had
   * finished, and one that decided later either shows in the claim read (its intent, or versions
   * past the expected ones: ConflictError) or claimed after this claim landed, saw it and
   * withdrew. Sent again when the claim had to finish a stale intent first.
   */
  prefetch?: () => Promise<void>;
  /** Runs after the claim is won and the versions are checked, with the control rows the claim read; throws to abandon the commit. */
  check?: (control: Control) => Promise<void>;
  /** Built once the versions are known (the writes may carry them). */
  writes: (versions: ReadonlyMap<string, [number, number]>) => Write[];
}

export interface IntentOptions {
  /** How long an intent may stay before it counts as left behind by a dead writer (ms). */
  leaseMs: number;
  clock: () => number;
}

export interface Intent {
  id: string;
  state: 'claim' | 'apply';
  at: number;
}

export interface Control {
  versions: Map<string, number>;
  intents: Intent[];
}

const flag = (key: string) => `p:${key}`;
/**
 * Partition flags are the integer 1, not `true`: Chroma's local server keeps an index on
 * (key, int value) and on (key, string value) of its metadata table, but none on boolean
 * values, so a filter on a boolean flag scans every boolean of every collection on the server
 * (76 ms per control read at 10k memories against 2 ms by the index). Stores written with
 * boolean flags are re-flagged once when opened ({@link upgradeFormat}).
 */
const FLAG = 1;
const coverFilter = (keys: readonly string[]): Filter => or(...keys.map((key) => eq(flag(key), FLAG)));
const flags = (keys: readonly string[]): Metadata => Object.fromEntries(keys.map((key) => [flag(key), FLAG]));

/** The versions and the intents in flight of `keys` (one request). */
export async function readControl(collections: Collections, keys: readonly string[]): Promise<Control> {
  const rows = await collections.get('control', { where: coverFilter(keys) });
  const versions = new Map(keys.map((key) => [key, 0]));
  const intents: Intent[] = [];
  for (const row of rows) {
    const { kind, state, at, version } = row.metadata;
    if (kind === 'version' && row.id.startsWith('v:') && typeof version === 'number') versions.set(row.id.slice(2), version);
    if (kind === 'intent' && (state === 'claim' || state === 'apply') && typeof at === 'number') intents.push({ id: row.id, state, at });
  }
  return { versions, intents };
}

/** Commits `plan` as described above; resolves to each partition's [version before, after]. */
export async function commitPlan(collections: Collections, plan: Plan, options: IntentOptions): Promise<Map<string, [number, number]>> {
  const keys = [...new Set([...plan.partitions, ...plan.expected.keys()])];
  const id = `i:${randomHex()}`;
  // The checks' reads go out beside the claim (see Plan.prefetch); settled before anything else.
  const claimed = collections.upsert('control', [{ id, metadata: { kind: 'intent', state: 'claim', at: options.clock(), ...flags(keys) } }]);
  const early = Promise.allSettled([plan.prefetch?.()]);
  try {
    await claimed;
  } catch (error) {
    await early;
    throw error;
  }
  let decided = false;
  let partIds: string[] = [];
  let inline = true;
  try {
    const [read] = await early;
    if (read!.status === 'rejected') throw read!.reason;
    const control = await claim(collections, keys, id, options, plan.prefetch);
    const versions = new Map<string, [number, number]>();
    for (const key of keys) {
      const version = control.versions.get(key) ?? 0;
      const seen = plan.expected.get(key);
      if (seen !== undefined && seen !== version) throw new ConflictError(`partition ${key} changed (version ${seen} → ${version}) while this write was being decided`);
      versions.set(key, [version, version + 1]);
    }
    await plan.check?.(control);
    const all = plan.writes(versions);
    const after = [...versions].map(([key, [, version]]) => [key, version] as [string, number]);
    // Rows upserted into the control collection itself (the stored inputs) go with the
    // decision, in its request, when they fit: they land all or none with it, so they need no
    // request of their own and no place in the plan.
    const decision: ChromaRow[] = [{ id, metadata: { state: 'apply' } }, ...versionRows(after)];
    const own = all.flatMap((write) => (write.table === 'control' && 'upsert' in write ? write.upsert : []));
    const folded = own.length > 0 && decision.length + own.length <= collections.maxBatch;
    const writes = folded ? all.filter((write) => !(write.table === 'control' && 'upsert' in write)) : all;
    if (folded) decision.push(...own);
    const parts = await planRows(id, { writes, versions: after });
    // A small plan, the decision and the new versions in one request (readers and writers see
    // all or none); a large plan (an import) first, in the plans collection, and the decision
    // alone after it: the control collection, read by every call, only ever holds small rows.
    inline = parts.length <= INLINE_PARTS && parts.length + decision.length <= collections.maxBatch;
    partIds = parts.map((row) => row.id);
    if (inline) await collections.upsert('control', [...parts, ...decision]);
    else {
      await collections.upsert('plans', parts);
      await collections.upsert('control', decision);
    }
    decided = true;
    await apply(collections, writes);
    await clear(collections, id, inline ? { control: partIds, plans: [] } : { control: [], plans: partIds });
    return versions;
  } catch (error) {
    // Before the `apply` mark nothing is written: withdrawing the claim is the whole rollback.
    // After it, the intent stays for the next reader, writer or opener to finish; this writer
    // gives it up (its lease ends now), so they need not wait for the lease to run out.
    const cleanup = decided ? collections.mark('control', id, { at: 0 }) : clear(collections, id, inline ? { control: partIds, plans: [] } : { control: [], plans: partIds });
    await cleanup.catch((failure: unknown) => warnLeftBehind(id, decided, failure));
    throw error;
  }
}

/** An intent whose cleanup failed (the server went away) is still safe: a claim writes nothing, and a decided intent is finished once its lease ends. */
function warnLeftBehind(id: string, decided: boolean, error: unknown): void {
  const what = decided ? 'decided intent could not be given up; it is finished once its lease ends' : 'claim could not be withdrawn; it expires with its lease';
  console.warn(`engram/chroma: ${id}: the ${what} (${error instanceof Error ? error.message : String(error)}).`);
}

/** Step 2: the control rows, once no other live intent covers these partitions; `prefetch` (already run once, beside the claim) again after finishing a stale intent. */
async function claim(collections: Collections, keys: readonly string[], own: string, options: IntentOptions, prefetch?: () => Promise<void>): Promise<Control> {
  for (let round = 0; ; round++) {
    const [control] = await Promise.all([readControl(collections, keys), round > 0 ? prefetch?.() : undefined]);
    const others = control.intents.filter((intent) => intent.id !== own);
    if (others.length === 0) return control;
    const live = others.find((intent) => !isStale(intent, options));
    if (live) throw new ConflictError(`another write on ${keys.join(', ')} is in flight (intent ${live.id}); decide again`);
    for (const intent of others) await finish(collections, intent);
  }
}

const isStale = (intent: Intent, options: IntentOptions) => options.clock() - intent.at >= options.leaseMs;

const versionRows = (versions: readonly [string, number][]): ChromaRow[] => versions.map(([key, version]) => ({ id: `v:${key}`, metadata: { kind: 'version', version, [flag(key)]: FLAG } }));

/**
 * Applies a decided commit's writes (upserts and deletes by id: applying twice is applying
 * once): in order within a collection, the collections side by side (no write of one depends
 * on another's; the intent stays until all have landed).
 */
async function apply(collections: Collections, writes: readonly Write[]): Promise<void> {
  const byTable = new Map<Table, Write[]>();
  for (const write of writes) byTable.set(write.table, [...(byTable.get(write.table) ?? []), write]);
  const results = await Promise.allSettled(
    [...byTable.values()].map(async (run) => {
      for (const write of run) {
        if ('upsert' in write) await collections.upsert(write.table, write.upsert);
        else if ('update' in write) await collections.update(write.table, write.update);
        else await collections.remove(write.table, write.remove);
      }
    }),
  );
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Finishes an intent another writer left: an `apply` is applied (again) with its versions
 * (written with the decision already; again, in case that request was not all-or-nothing)
 * and cleared; a `claim` is withdrawn.
 */
async function finish(collections: Collections, intent: Intent): Promise<void> {
  if (intent.state === 'apply') {
    const { writes, versions } = await readPlan(collections, intent.id);
    await apply(collections, writes);
    await collections.upsert('control', versionRows(versions));
  }
  await clear(collections, intent.id, await planIds(collections, intent.id));
}

/** Deletes an intent and its plan: the intent (with the parts beside it) first, then the plans collection's parts (left by a failure in between, they are never read again). */
async function clear(collections: Collections, id: string, parts: { control: readonly string[]; plans: readonly string[] }): Promise<void> {
  await collections.remove('control', [id, ...parts.control]);
  if (parts.plans.length) await collections.remove('plans', parts.plans);
}

/** On open: finishes every intent left behind longer than the lease (all of them with `leaseMs: 0`). */
export async function recoverIntents(collections: Collections, options: IntentOptions): Promise<number> {
  const rows: ReadRow[] = await collections.get('control', { where: eq('kind', 'intent') });
  let finished = 0;
  for (const row of rows) {
    const { state, at } = row.metadata;
    if ((state !== 'claim' && state !== 'apply') || typeof at !== 'number') continue;
    const intent: Intent = { id: row.id, state, at };
    if (!isStale(intent, options)) continue;
    await finish(collections, intent);
    finished++;
  }
  return finished;
}

/**
 * The control row that says which format the store is in: absent, boolean flags (before
 * format 2); 2, integer flags and inputs without the `held` mark (rows.ts); 3, both.
 */
const FORMAT_ID = 'format';
const FORMAT = 3;

/** The kinds of stored input that can hold writes for review (a prune holds none). */
const WRITE_KINDS = ['ingest', 'remember', 'summary'];

/**
 * On open, a store an earlier engram wrote is brought to this format: boolean partition flags
 * on its control rows become integers (version rows and intents alike), its stored inputs that
 * hold writes for review get the `held` mark, then the format row is written. Idempotent, so an
 * opener that dies half-way leaves the rest to the next one. One read by id once done.
 * Writers of an earlier engram must not run beside this one (they write boolean flags and no mark).
 */
export async function upgradeFormat(collections: Collections): Promise<void> {
  const [format] = await collections.get('control', { ids: [FORMAT_ID], documents: true });
  const at = format?.metadata.format;
  if (at === FORMAT) return;
  if (typeof at !== 'number' || at < 2) {
    const rows = await collections.get('control', { where: oneOf('kind', ['version', 'intent']) });
    for (const row of rows) {
      const old = Object.keys(row.metadata).filter((name) => name.startsWith('p:') && row.metadata[name] === true);
      if (old.length) await collections.mark('control', row.id, Object.fromEntries(old.map((name) => [name, FLAG])));
    }
  }
  // Stored inputs are in the control collection, and an engram before that kept them in `inputs`.
  for (const table of ['control', 'inputs'] as const) {
    const rows = await collections.get(table, { where: oneOf('kind', WRITE_KINDS) });
    // A damaged row stays unmarked: reading the owner's inputs rejects on it anyway (rows.ts inputOf).
    const marks = rows.filter(holdsReview).map((row) => ({ id: row.id, metadata: { held: HELD } }));
    await collections.update(table, marks);
  }
  await collections.upsert('control', [{ id: FORMAT_ID, metadata: { kind: 'format', format: FORMAT } }]);
}

/** Whether a stored input's row holds writes for review; a damaged row does not (see above). */
function holdsReview(row: ReadRow): boolean {
  try {
    return holdsPending(inputOf(row));
  } catch {
    return false;
  }
}

/** Reads attempted before a read that keeps meeting writes in flight gives up. */
const MAX_READS = 50;

/**
 * Runs `body` so that it sees no commit half-applied on `keys`: the control rows are read
 * before (handed to `body`: what it read is the store at those versions) and after it; when a write was in flight or a version moved in between, it waits
 * (finishing intents past their lease) and reads again.
 */
export async function consistentRead<T>(collections: Collections, keys: readonly string[], body: (before: Control) => Promise<T>, options: IntentOptions): Promise<T> {
  for (let attempt = 0; attempt < MAX_READS; attempt++) {
    // A claim has written nothing: only decided intents (`apply`) can be half-applied.
    const before = await readControl(collections, keys);
    const applying = before.intents.filter((intent) => intent.state === 'apply');
    if (applying.length === 0) {
      const result = await body(before);
      const after = await readControl(collections, keys);
      if (!after.intents.some((intent) => intent.state === 'apply') && keys.every((key) => after.versions.get(key) === before.versions.get(key))) return result;
    } else {
      for (const intent of applying) if (isStale(intent, options)) await finish(collections, intent);
    }
    await new Promise((done) => setTimeout(done, Math.min(200, 5 * 2 ** Math.min(attempt, 6))));
  }
  throw new ConflictError(`reading ${keys.join(', ')} met a write in flight ${MAX_READS} times in a row; try again`);
}

function randomHex(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
