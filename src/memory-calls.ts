/**
 * Every member of `Memory` and what the guards around a memory (closed.ts, the eviction check)
 * do with it, in one table typed against `Memory`: a verb added to `Memory` without its row
 * here, or a synchronous one filed as a promise, does not compile. Adding a verb is one row.
 */
import type { Memory } from './memory-api';

/**
 * - `'store'`: returns a promise and reads the store: checked for close and for eviction.
 * - `'write'`: returns a promise and writes to the store: checked as `'store'` is, and
 *   `close()` waits for those in flight (closed.ts).
 * - `'device'`: returns a promise without reaching the store (the browser's storage calls):
 *   checked for close only.
 * - `'sync'`: returns no promise: checked for close, by a throw.
 * - `'close'`: `close` itself, idempotent: never checked.
 * - `'value'`: not a method; copied as it is.
 */
export type CallKind = 'store' | 'write' | 'device' | 'sync' | 'close' | 'value';

/** The kinds a member of this type may be filed under: a promise is never `'sync'`, a plain result always is. */
type KindsOf<F> = F extends (...args: never[]) => infer R ? (R extends PromiseLike<unknown> ? 'store' | 'write' | 'device' | 'close' : 'sync') : 'value';

/** The shape of {@link MEMORY_CALLS}: one row per member of `Memory`, each of a kind its type allows. */
export type CallTable = { readonly [K in keyof Memory]-?: KindsOf<Memory[K]> };

export const MEMORY_CALLS = {
  computeLocation: 'value',
  ingest: 'write',
  remember: 'write',
  summarizeSession: 'write',
  retrieve: 'store',
  explain: 'store',
  inject: 'sync',
  assemble: 'sync',
  forgetSource: 'write',
  forget: 'write',
  correct: 'write',
  pin: 'write',
  unpin: 'write',
  why: 'store',
  prune: 'write',
  undo: 'write',
  pending: 'store',
  approve: 'write',
  reject: 'write',
  list: 'store',
  get: 'store',
  history: 'store',
  reembed: 'write',
  export: 'store',
  import: 'write',
  subscribe: 'sync',
  persist: 'device',
  storageEstimate: 'device',
  close: 'close',
} as const satisfies CallTable;

/** A method of `memory`, bound to it. */
export type Call = (...args: unknown[]) => unknown;

/**
 * A copy of `memory` in which each method filed under one of `kinds` is replaced by what `wrap`
 * makes of it (`call` is bound to `memory`); every other member, symbol-keyed ones included, is
 * `memory`'s own. Internal calls between methods keep using `memory`.
 */
export function decorateCalls(memory: Memory, kinds: readonly CallKind[], wrap: (name: keyof Memory, call: Call, kind: CallKind) => Call): Memory {
  const decorated: Record<string, unknown> = { ...memory };
  for (const name of Object.keys(MEMORY_CALLS) as (keyof typeof MEMORY_CALLS)[]) {
    const kind: CallKind = MEMORY_CALLS[name];
    const method: unknown = memory[name];
    if (!kinds.includes(kind) || typeof method !== 'function') continue;
    decorated[name] = wrap(name, (method as Call).bind(memory), kind);
  }
  return decorated as unknown as Memory;
}
