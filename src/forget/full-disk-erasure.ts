/**
 * The erasing verbs on a full disk (store/full-disk.ts): `forgetSource`, `forget(id)` and `prune`
 * only remove data, so when the quota refuses their commit each is made by one transaction of
 * deletes alone (`RecordStore.eraseByDeleting`), and whatever it needed to write waits for the
 * rebuild that the owner's next write with room makes first (forget.ts `finishErasure`).
 *
 * Most of what waits is rebuilt from the stored inputs. Two things are not there: the stored
 * conversations `forget(id)` rewrites (the other facts of a sentence it took one fact out of: the
 * old row holds the forgotten words, so it is deleted, and its rewrite needs a put) and the record
 * of a `prune` call (a new input row). Nothing can be stored at quota, so this instance holds
 * them ({@link DeferredInputs}) and the rebuild writes them. They hold no forgotten text. An
 * instance that closes before there is room loses them: the rebuild another instance makes lacks
 * them (docs/data.md says what that costs), and the erased text never comes back either way.
 *
 * Rules this code keeps:
 * - One predicate says when an erasure goes by deletes ({@link deletesInstead}).
 * - What waits is valid only while the owner's partition waits for its rebuild: once this
 *   instance sees it rebuilt (by itself or another instance) nothing is held for it any more.
 * - A later erasure sees the held inputs as stored ones ({@link withDeferred}), so it erases from
 *   them too: a revoked source's go, a forgotten span leaves them.
 */
import { QuotaError } from '../errors';
import type { InputRow, Owner, PruneInput, Storage } from '../storage/contract';

/** Whether an erasure whose commit failed with `error` is made by deletes alone instead: the disk is full, and the store can. */
export function deletesInstead(store: Storage['records'], error: unknown): boolean {
  return error instanceof QuotaError && store.eraseByDeleting !== undefined;
}

/** The inputs an erasure by deletes could not write, held for the owner's rebuild. */
export interface DeferredInputs {
  /** Stored input seq → the input as it stays (a forget's rewrite; the stored row was deleted). */
  rewrites: ReadonlyMap<number, InputRow>;
  /** Prune records, after every stored input, in call order. */
  prunes: readonly PruneInput[];
}

const NONE: DeferredInputs = { rewrites: new Map(), prunes: [] };

/** Per storage, per owner (ownerKey): what waits. */
const held = new WeakMap<Storage, Map<string, DeferredInputs>>();

const ownerKey = (owner: Owner) => JSON.stringify([owner.userId, owner.appName]);

/** What waits for the owner's rebuild in this instance; nothing once the partition is not waiting any more. */
export async function deferredInputs(storage: Storage, owner: Owner): Promise<DeferredInputs> {
  const byOwner = held.get(storage);
  const mine = byOwner?.get(ownerKey(owner));
  if (!mine) return NONE;
  if (await storage.records.erasurePending?.(owner)) return mine;
  byOwner!.delete(ownerKey(owner));
  return NONE;
}

/**
 * Records what an erasure by deletes leaves to the rebuild: `changed` (seq → the input as it
 * stays, or null: it goes) over what waited already, and a prune's record.
 */
export async function defer(storage: Storage, owner: Owner, changed: ReadonlyMap<number, InputRow | null>, prune?: PruneInput): Promise<void> {
  const before = await deferredInputs(storage, owner);
  const rewrites = new Map(before.rewrites);
  for (const [seq, input] of changed) {
    if (input === null) rewrites.delete(seq);
    else rewrites.set(seq, { ...input, seq });
  }
  const byOwner = held.get(storage) ?? new Map<string, DeferredInputs>();
  held.set(storage, byOwner);
  byOwner.set(ownerKey(owner), { rewrites, prunes: [...before.prunes, ...(prune ? [prune] : [])] });
}

/** The rebuild wrote what waited: nothing is held for the owner any more. */
export function settle(storage: Storage, owner: Owner): void {
  held.get(storage)?.delete(ownerKey(owner));
}

/** Stored inputs with the held rewrites among them, in seq order: what a replay or a later erasure reads as the owner's log. */
export function withDeferred(inputs: readonly InputRow[], deferred: DeferredInputs, keep: (input: InputRow) => boolean = () => true): InputRow[] {
  if (deferred.rewrites.size === 0) return [...inputs];
  const stored = new Set(inputs.map((input) => input.seq));
  const waiting = [...deferred.rewrites.values()].filter((input) => !stored.has(input.seq) && keep(input));
  return [...inputs, ...waiting].sort((a, b) => a.seq! - b.seq!);
}
