/** Loads the occasional verbs' chunk (./occasional.ts) once, on the first call that needs it; a failed load is retried on the next call. */
type Occasional = typeof import('./occasional');

let loading: Promise<Occasional> | undefined;

export function occasionalVerbs(): Promise<Occasional> {
  const pending = (loading ??= import('./occasional'));
  pending.catch(() => (loading = undefined));
  return pending;
}
