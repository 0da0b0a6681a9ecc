/**
 * Keeps large IndexedDB batches from freezing the page. A `bulkPut` or `bulkGet` of thousands
 * of rows (an import of 10,000 memories, its lineage and events) issues every request in one
 * synchronous loop, and each `put` structured-clones its row on the calling thread: one task of
 * over a second on the main thread. This DBCore middleware, the closest to the database, issues
 * such a batch in slices, each as many requests as fit in what is left of the task's
 * {@link SLICE_MS} of sliced work (slices.ts `sliceElapsed`, shared with the page's other
 * slicing loops), and issues the next slice when the previous one has completed, so the page
 * gets its frames in between.
 *
 * Still one transaction: a slice is issued from the success event of the one before it, while
 * the transaction is active and holds requests, so it never commits between slices, and a
 * failure anywhere aborts all of it as before. The merged response is what the unsliced call
 * gives (results in order, failures at their index in the whole batch).
 */
import type { DBCore, DBCoreGetManyRequest, DBCoreMutateRequest, DBCoreMutateResponse, Middleware } from 'dexie';
import { SLICE_MS, sliceElapsed } from '../slices';

/** Requests per call down: the granularity of a slice. Batches up to this size go down whole (no extra promise hop). */
export const GRAIN = 16;

/**
 * Runs `issue` over `[0, length)` in calls of GRAIN, as many in a row as fit in what is left
 * of the task's SLICE_MS (slices.ts `sliceElapsed`; at least one); the next slice goes out
 * once the last call of this one has completed (requests complete in order, so the whole
 * slice has). Resolves to the calls' results in order.
 */
function inSlices<T>(sliceMs: number, length: number, issue: (from: number, to: number) => Promise<T>): Promise<{ from: number; result: T }[]> {
  const out: { from: number; result: T }[] = [];
  const next = (from: number): Promise<{ from: number; result: T }[]> => {
    const calls: Promise<{ from: number; result: T }>[] = [];
    let at = from;
    // The task's budget is shared with the page's other sliced work (a commit's puts run side by side).
    while (at < length && (sliceElapsed() < sliceMs || at === from)) {
      const to = Math.min(length, at + GRAIN);
      const start = at;
      calls.push(issue(start, to).then((result) => ({ from: start, result })));
      at = to;
    }
    return Promise.all(calls).then((results) => {
      out.push(...results);
      return at < length ? next(at) : out;
    });
  };
  return next(0);
}

function slicedMutate(sliceMs: number, table: ReturnType<DBCore['table']>, request: DBCoreMutateRequest): Promise<DBCoreMutateResponse> {
  if (request.type === 'deleteRange') return table.mutate(request);
  const length = request.type === 'delete' ? request.keys.length : request.values.length;
  if (length <= GRAIN) return table.mutate(request);
  return inSlices(sliceMs, length, (from, to) => {
    if (request.type === 'delete') return table.mutate({ ...request, keys: request.keys.slice(from, to) });
    return table.mutate({ ...request, values: request.values.slice(from, to), ...(request.keys ? { keys: request.keys.slice(from, to) } : {}) } as DBCoreMutateRequest);
  }).then((slices) => {
    const response: DBCoreMutateResponse = { numFailures: 0, failures: {}, results: [], lastResult: undefined };
    for (const { from, result } of slices) {
      response.numFailures += result.numFailures;
      for (const [index, error] of Object.entries(result.failures)) if (error !== undefined) response.failures[from + Number(index)] = error;
      if (result.results) response.results!.push(...result.results);
      response.lastResult = result.lastResult;
    }
    if (!slices.every(({ result }) => result.results)) delete response.results;
    return response;
  });
}

function slicedGetMany(sliceMs: number, table: ReturnType<DBCore['table']>, request: DBCoreGetManyRequest): Promise<unknown[]> {
  if (request.keys.length <= GRAIN) return table.getMany(request);
  return inSlices(sliceMs, request.keys.length, (from, to) => table.getMany({ ...request, keys: request.keys.slice(from, to) })).then((slices) => slices.flatMap(({ result }) => result));
}

/**
 * The middleware (install with `db.use(...)` before the database opens); `sliceMs` is the
 * task's sliced work a slice may reach (tests pass 0: every call of GRAIN requests is a slice
 * of its own).
 */
export function slicedRequestsMiddleware(sliceMs = SLICE_MS): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'engram-sliced-requests',
    // Below every other middleware (Dexie's own start at -1): what it slices are the native requests.
    level: -10,
    create: (down) => ({
      ...down,
      table(name) {
        const table = down.table(name);
        return { ...table, mutate: (request) => slicedMutate(sliceMs, table, request), getMany: (request) => slicedGetMany(sliceMs, table, request) };
      },
    }),
  };
}

export const slicedRequests = slicedRequestsMiddleware();
