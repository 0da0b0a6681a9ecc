/**
 * The verbs' lazily loaded chunks, each imported once, on the first call that needs it; a failed
 * load is retried on the next call. The rest of a Memory (open, retrieve, inject, list) is in
 * the entry chunk.
 */
type Writes = typeof import('./writes');
type Occasional = typeof import('./occasional');

/** `load`, run once and shared; after a failed load the next call runs it again. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    const pending = (loading ??= load());
    pending.catch(() => (loading = undefined));
    return pending;
  };
}

/** ingest, remember, summarizeSession (./writes.ts). */
export const writeVerbs: () => Promise<Writes> = once(() => import('./writes'));

/** Erasure, undo, prune, re-embedding, export/import and the `asOf` reads (./occasional.ts). */
export const occasionalVerbs: () => Promise<Occasional> = once(() => import('./occasional'));
