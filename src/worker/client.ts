/**
 * The library's handle on compute: a module Web Worker behind Comlink where `Worker` exists
 * (the browser; @vitest/web-worker), the same module in-process otherwise or with `worker: 'off'`.
 * Every call returns a promise either way. A worker that dies or hangs rejects its pending
 * calls with a WorkerError (a pending Comlink call would otherwise never settle) and is
 * restarted on the next call; its partitions are then reloaded from the store. A call's timeout
 * runs from the worker's first answer: its start has a limit of its own.
 */
import { transfer, wrap, type Remote } from 'comlink';
import { WorkerError } from '../errors';
import type { ComputeApi, IndexRows, ScanRequest } from './api';
import { rowBuffers } from './transfers';
import type { ComputeOptions } from './compute';
import { readConcepts } from './concepts-asset';

/**
 * Every compute method as the library calls it: Comlink's view of the compute API (each call a
 * promise of the result), derived once. The in-process client answers in the same shape, so
 * stages never know where compute runs.
 */
export type ComputeCalls = { [K in keyof ComputeApi]: RemoteMethod<ComputeApi[K]> };
/** One method of `Remote<ComputeApi>` without Comlink's proxy handles (`releaseProxy`, …), which the client never exposes. */
type RemoteMethod<F> = Remote<F> extends (...args: infer A) => infer R ? (...args: A) => R : never;

export type ComputeClient = ComputeCalls & {
  /** Where compute runs: `'worker'` or `'in-process'`. */
  readonly location: 'worker' | 'in-process';
  /**
   * Starts compute now instead of at its first call: the worker (its module, its kernel) and the
   * semantic table's load (download and parse), so that they run beside other work, as
   * createMemory's database open. Resolves once compute answered; never rejects (a start that
   * failed is the next call's error, and that call starts it again). Idempotent.
   */
  start(): Promise<void>;
  close(): void;
};

export type WorkerMode = 'auto' | 'off';

export interface ComputeClientOptions {
  worker?: WorkerMode;
  /** A call that takes longer than this rejects with WorkerError and the worker is restarted. */
  timeoutMs?: number;
  /** Injectable for tests; defaults to the bundled worker module. */
  createWorker?: () => Worker;
  /** In-process compute only: its options (tests and benchmarks that inspect f32 rows). */
  compute?: ComputeOptions;
  /**
   * `true` (default): the client reads the semantic channel's table (worker/concepts-asset.ts)
   * and hands it to compute before its first scan, and every scan uses it; `false`: never.
   */
  semantic?: boolean;
  /** Injectable for tests: how the semantic table's bytes are read; defaults to its bundled asset (concepts-asset.ts). */
  readConcepts?: () => Promise<ArrayBuffer>;
}

/**
 * The methods the client forwards, as an object so the compiler checks it against ComputeApi
 * both ways: a compute method missing here fails the build instead of being `undefined` at run
 * time (and test/worker/client.test.ts checks the running compute module has no others).
 */
const FORWARDED: { readonly [K in keyof ComputeApi]: true } = {
  embed: true,
  loadPartition: true,
  applyChanges: true,
  partitionVersion: true,
  dropPartition: true,
  exportPartition: true,
  scan: true,
  neighbours: true,
  stats: true,
  loadModel: true,
  embedModel: true,
  clearCaches: true,
  loadConcepts: true,
};
/** Every compute method, from {@link FORWARDED}. */
export const COMPUTE_METHODS = Object.keys(FORWARDED) as readonly (keyof ComputeApi)[];

/** How long `loadModel` may take in the worker. */
const MODEL_LOAD_TIMEOUT_MS = 600_000;

/**
 * How long a new worker may take to start (its module loaded, its WASM compiled: a few hundred
 * ms on a loaded machine), at least: a call's `timeoutMs` runs from the worker's first answer,
 * so a timeout shorter than a start does not kill every worker before it can answer.
 */
const WORKER_START_TIMEOUT_MS = 30_000;

export function createComputeClient(options: ComputeClientOptions = {}): ComputeClient {
  const useWorker = (options.worker ?? 'auto') === 'auto' && typeof Worker !== 'undefined';
  return useWorker ? createWorkerClient(options) : createInProcessClient(options);
}

/** The semantic table's load into one compute (see {@link conceptsOnce}). */
export interface ConceptsLoad {
  /** The load, download and hand-over: started if it is not under way or done (a scan, which uses the table, retries one that failed). */
  start(): Promise<void>;
  /**
   * The hand-over to compute (its parse) while it runs, else nothing; starts the load on the
   * client's first call. A call that does not use the table waits for the parse alone (the
   * worker answers nothing meanwhile), never for the download: a slow or stalled fetch of the
   * table delays no ingest, embed or erasure.
   */
  handing(): Promise<void> | undefined;
}

/**
 * Reads the table and hands it to compute (`load`: its `loadConcepts`) once: started by the
 * client's first call, so that the fetch runs while the store is read at open, not after the
 * first retrieve asked for it. The promise is kept, and dropped when the read fails, so that a
 * table that could not be fetched (offline) leaves that scan lexical and is fetched again by the
 * next scan instead of failing retrieval. A table that was fetched but that compute would not
 * take (it does not decode: an HTML fallback page served with 200) is final for this client:
 * logged once, and the scans stay lexical without fetching and posting it again each time.
 */
export function conceptsOnce(load: (table: ArrayBuffer) => Promise<unknown>, read: () => Promise<ArrayBuffer> = readConcepts): ConceptsLoad {
  let loading: Promise<void> | undefined;
  let handing: Promise<void> | undefined;
  let tried = false;
  const start = () => {
    tried = true;
    loading ??= read()
      .then(
        (table) => {
          const handed = load(table);
          handing = handed.then(
            () => {},
            () => {},
          );
          return handed.then(
            () => {},
            (error: unknown) => {
              console.warn(`engram: the WordNet table was fetched but not loaded; retrieval stays without its semantic expansion: ${error instanceof Error ? error.message : String(error)}`);
            },
          );
        },
        () => {
          loading = undefined;
        },
      )
      .finally(() => {
        handing = undefined;
      });
    return loading;
  };
  return {
    start,
    handing: () => {
      if (!tried) void start();
      return handing;
    },
  };
}

/**
 * Whether a call reads the semantic table, and so waits for its load: a scan with a query text
 * (the lexical channel, which the table expands). A scan without one (the vector-only path, the
 * neighbours of a sweep) ranks by the cosine alone, the same with the table as without it, and
 * does not wait for its download. A scan with text always waits, even for a query none of whose
 * terms the table knows: which those are is only known from the table, and a cold retrieve must
 * rank as a warm one does (docs/perf.md, cold start).
 */
export function usesConcepts(method: keyof ComputeApi, args: readonly unknown[]): boolean {
  return method === 'scan' && Boolean((args[0] as ScanRequest | undefined)?.queryText);
}

/** `work`, or nothing once `ms` have passed (the work goes on; its result is not waited for). */
function atMost(work: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}

/** `calls` with every method of COMPUTE_METHODS, checked: a method the forwarding left out is an error here, not `undefined` later. */
function completeClient(calls: Record<string, unknown>, location: ComputeClient['location'], own: Pick<ComputeClient, 'start' | 'close'>): ComputeClient {
  const missing = COMPUTE_METHODS.filter((method) => typeof calls[method] !== 'function');
  if (missing.length) throw new WorkerError(`the ${location} compute client forwards no ${missing.join(', ')}; every ComputeApi method must be forwarded`);
  return Object.assign(calls, { location, ...own }) as unknown as ComputeClient;
}

/**
 * Compute in this thread. Its module (the kernel, the partitions, the scan) is imported on the
 * first call, so a browser application, where compute runs in the worker, does not carry a
 * second copy of it in its main bundle.
 */
function createInProcessClient(options: ComputeClientOptions): ComputeClient {
  const semantic = options.semantic ?? true;
  let compute: Promise<ComputeApi> | undefined;
  const loaded = () => {
    const loading = (compute ??= import('./compute').then(({ createCompute }) => createCompute(options.compute)));
    loading.catch(() => (compute = undefined));
    return loading;
  };
  const concepts = conceptsOnce(async (table) => (await loaded()).loadConcepts(table), options.readConcepts);
  const calls: Record<string, unknown> = {};
  for (const method of COMPUTE_METHODS) {
    calls[method] = async (...args: unknown[]) => {
      if (semantic) await (usesConcepts(method, args) ? atMost(concepts.start(), MODEL_LOAD_TIMEOUT_MS) : concepts.handing());
      return ((await loaded())[method] as (...a: unknown[]) => unknown)(...args);
    };
  }
  return completeClient(calls, 'in-process', {
    async start() {
      if (semantic) void concepts.start();
      await loaded().catch(() => {});
    },
    close: () => {},
  });
}

function defaultWorker(): Worker {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'engram-compute' });
}

/** Rejects with WorkerError (`message`) after `limit` ms, calling `expired` with that error first (the worker is restarted); `cancel` once answered. */
function deadline(message: string, limit: number, expired: (error: WorkerError) => void): { timeout: Promise<never>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new WorkerError(message);
      expired(error);
      reject(error);
    }, limit);
  });
  return { timeout, cancel: () => clearTimeout(timer) };
}

/** Every compute method sent through `call`; row buffers move to the worker instead of being copied. */
function workerCalls(call: (method: keyof ComputeApi, args: unknown[]) => Promise<unknown>): Record<string, unknown> {
  const calls: Record<string, unknown> = {};
  for (const method of COMPUTE_METHODS) calls[method] = (...args: unknown[]) => call(method, args);
  calls['loadPartition'] = (key: string, version: number, dim: number, rows: IndexRows, capacity?: number) => call('loadPartition', [key, version, dim, transfer(rows, rowBuffers(rows)), capacity]);
  calls['applyChanges'] = (key: string, from: number, to: number, upserts: IndexRows, removals: string[]) => call('applyChanges', [key, from, to, transfer(upserts, rowBuffers(upserts)), removals]);
  return calls;
}

/** One running worker: its Comlink remote, a promise that rejects the moment it fails, and one that resolves once it first answered. */
interface WorkerInstance {
  worker: Worker;
  remote: ComputeCalls;
  failed: Promise<never>;
  fail: (error: Error) => void;
  started: Promise<unknown>;
  /** The semantic table's load in this worker, from its first call (see conceptsOnce). */
  concepts: ConceptsLoad;
}

/**
 * The worker a client talks to, started on demand: a crash or a `restart` rejects every call
 * pending on it and terminates it, and the next `current()` starts a fresh one.
 */
function createWorkerSlot(spawn: () => Worker, startLimit: number, read?: () => Promise<ArrayBuffer>): { current(): WorkerInstance; restart(error: Error): void } {
  let running: WorkerInstance | null = null;
  function restart(error: Error) {
    const instance = running;
    running = null;
    if (!instance) return;
    instance.fail(error);
    instance.worker.terminate();
  }
  function start(): WorkerInstance {
    const worker = spawn();
    let fail!: (error: Error) => void;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    failed.catch(() => {});
    const remote = wrap<ComputeApi>(worker) as unknown as ComputeCalls;
    // Its first answer (to a question about no partition) says it has started; it must come within startLimit.
    const { timeout, cancel } = deadline(`the compute worker did not start within ${startLimit} ms; it was restarted, retry the call`, startLimit, restart);
    const started = Promise.race([remote.partitionVersion(''), failed, timeout]).finally(cancel);
    started.catch(() => {});
    const instance = { worker, remote, failed, fail, started, concepts: conceptsOnce((table) => Promise.race([remote.loadConcepts(table), failed]), read) };
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      restart(new WorkerError(`the compute worker crashed (${event.message || 'no message'}); the call was not completed, retry it`));
    });
    running = instance;
    return instance;
  }
  return { current: () => running ?? start(), restart };
}

function createWorkerClient(options: ComputeClientOptions): ComputeClient {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const semantic = options.semantic ?? true;
  const slot = createWorkerSlot(options.createWorker ?? defaultWorker, Math.max(timeoutMs, WORKER_START_TIMEOUT_MS), options.readConcepts);
  let closed = false;

  async function call(method: keyof ComputeApi, args: unknown[]): Promise<unknown> {
    if (closed) throw new WorkerError('the compute worker was closed (memory.close() was called); create a new memory instance');
    const instance = slot.current();
    // The call's time runs from the worker's start, not through it.
    try {
      await instance.started;
    } catch (error) {
      throw error instanceof WorkerError ? error : new WorkerError(`the compute worker did not start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    // The semantic table is fetched and parsed once per worker, from its first call, on a clock
    // of its own (a download, like a model's): a scan waits for it outside its limit, and any
    // call made during the parse waits for the parse, since the worker answers nothing meanwhile
    // and a short workerTimeoutMs would otherwise restart the worker at every load, and never
    // answer. A table that takes longer leaves a scan lexical (conceptsOnce).
    const concepts = semantic ? (usesConcepts(method, args) ? instance.concepts.start() : instance.concepts.handing()) : undefined;
    if (concepts) await atMost(concepts, Math.max(timeoutMs, MODEL_LOAD_TIMEOUT_MS));
    // Loading a model may download and compile it: minutes, not a compute call's seconds.
    const limit = method === 'loadModel' ? Math.max(timeoutMs, MODEL_LOAD_TIMEOUT_MS) : timeoutMs;
    const { timeout, cancel } = deadline(`compute call '${method}' did not answer within ${limit} ms; the worker was restarted, retry the call`, limit, slot.restart);
    try {
      const fn = instance.remote[method] as unknown as (...a: unknown[]) => Promise<unknown>;
      return await Promise.race([fn(...args), instance.failed, timeout]);
    } catch (error) {
      if (error instanceof WorkerError) throw error;
      throw new WorkerError(`compute call '${method}' failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    } finally {
      cancel();
    }
  }

  return completeClient(workerCalls(call), 'worker', {
    async start() {
      if (closed) return;
      let instance: WorkerInstance;
      try {
        instance = slot.current();
      } catch {
        // The worker could not be made (`new Worker` threw): the next call reports it.
        return;
      }
      // The table's download runs beside the worker's start; the worker takes it once it answers.
      if (semantic) void instance.concepts.start();
      await instance.started.catch(() => {});
    },
    close() {
      closed = true;
      slot.restart(new WorkerError('the compute worker was closed'));
    },
  });
}
