/**
 * The library's handle on compute: a module Web Worker behind Comlink where `Worker` exists
 * (the browser; @vitest/web-worker), the same module in-process otherwise or with `worker: 'off'`.
 * Every call returns a promise either way. A worker that dies or hangs rejects its pending
 * calls with a WorkerError (a pending Comlink call would otherwise never settle) and is
 * restarted on the next call; its partitions are then reloaded from the store.
 */
import { transfer, wrap, type Remote } from 'comlink';
import { WorkerError } from '../errors';
import type { ComputeApi, IndexRows } from './api';
import { createCompute, type ComputeOptions } from './compute';

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
};
/** Every compute method, from {@link FORWARDED}. */
export const COMPUTE_METHODS = Object.keys(FORWARDED) as readonly (keyof ComputeApi)[];

/** How long `loadModel` may take in the worker. */
const MODEL_LOAD_TIMEOUT_MS = 600_000;

export function createComputeClient(options: ComputeClientOptions = {}): ComputeClient {
  const useWorker = (options.worker ?? 'auto') === 'auto' && typeof Worker !== 'undefined';
  return useWorker ? createWorkerClient(options) : createInProcessClient(options.compute);
}

/** `calls` with every method of COMPUTE_METHODS, checked: a method the forwarding left out is an error here, not `undefined` later. */
function completeClient(calls: Record<string, unknown>, location: ComputeClient['location'], close: () => void): ComputeClient {
  const missing = COMPUTE_METHODS.filter((method) => typeof calls[method] !== 'function');
  if (missing.length) throw new WorkerError(`the ${location} compute client forwards no ${missing.join(', ')}; every ComputeApi method must be forwarded`);
  return Object.assign(calls, { location, close }) as unknown as ComputeClient;
}

function createInProcessClient(computeOptions?: ComputeOptions): ComputeClient {
  const compute = createCompute(computeOptions);
  const calls: Record<string, unknown> = {};
  for (const method of COMPUTE_METHODS) {
    calls[method] = async (...args: unknown[]) => (compute[method] as (...a: unknown[]) => unknown)(...args);
  }
  return completeClient(calls, 'in-process', () => {});
}

function defaultWorker(): Worker {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'engram-compute' });
}

function transferablesOf(rows: IndexRows): Transferable[] {
  const buffers = [rows.vectors.buffer, rows.updatedAt.buffer, rows.halfLifeDays.buffer, rows.importance.buffer, rows.scopes.buffer, rows.terms?.buffer, rows.termOffsets?.buffer];
  return [...new Set(buffers)].filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer);
}

function createWorkerClient(options: ComputeClientOptions): ComputeClient {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const spawn = options.createWorker ?? defaultWorker;
  let current: { worker: Worker; remote: ComputeCalls; failed: Promise<never>; fail: (error: Error) => void } | null = null;
  let closed = false;

  function start() {
    const worker = spawn();
    let fail!: (error: Error) => void;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    failed.catch(() => {});
    const instance = { worker, remote: wrap<ComputeApi>(worker), failed, fail };
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      restart(new WorkerError(`the compute worker crashed (${event.message || 'no message'}); the call was not completed, retry it`));
    });
    current = instance;
    return instance;
  }

  function restart(error: Error) {
    const instance = current;
    current = null;
    if (!instance) return;
    instance.fail(error);
    instance.worker.terminate();
  }

  async function call(method: keyof ComputeApi, args: unknown[]): Promise<unknown> {
    if (closed) throw new WorkerError('the compute worker was closed (memory.close() was called); create a new memory instance');
    const instance = current ?? start();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Loading a model may download and compile it: minutes, not a compute call's seconds.
    const limit = method === 'loadModel' ? Math.max(timeoutMs, MODEL_LOAD_TIMEOUT_MS) : timeoutMs;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new WorkerError(`compute call '${method}' did not answer within ${limit} ms; the worker was restarted, retry the call`);
        restart(error);
        reject(error);
      }, limit);
    });
    try {
      const fn = instance.remote[method] as unknown as (...a: unknown[]) => Promise<unknown>;
      return await Promise.race([fn(...args), instance.failed, timeout]);
    } catch (error) {
      if (error instanceof WorkerError) throw error;
      throw new WorkerError(`compute call '${method}' failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  const calls: Record<string, unknown> = {};
  for (const method of COMPUTE_METHODS) calls[method] = (...args: unknown[]) => call(method, args);
  // Row buffers move to the worker instead of being copied.
  calls['loadPartition'] = (key: string, version: number, dim: number, rows: IndexRows, capacity?: number) =>
    call('loadPartition', [key, version, dim, transfer(rows, transferablesOf(rows)), capacity]);
  calls['applyChanges'] = (key: string, from: number, to: number, upserts: IndexRows, removals: string[]) =>
    call('applyChanges', [key, from, to, transfer(upserts, transferablesOf(upserts)), removals]);
  return completeClient(calls, 'worker', () => {
    closed = true;
    restart(new WorkerError('the compute worker was closed'));
  });
}
