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
import { createCompute } from './compute';

type Promisified<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };

export type ComputeClient = Promisified<ComputeApi> & {
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
}

const METHODS = [
  'embed',
  'loadPartition',
  'applyChanges',
  'partitionVersion',
  'dropPartition',
  'exportPartition',
  'scan',
  'neighbours',
  'stats',
  'clearCaches',
] as const satisfies readonly (keyof ComputeApi)[];

export function createComputeClient(options: ComputeClientOptions = {}): ComputeClient {
  const useWorker = (options.worker ?? 'auto') === 'auto' && typeof Worker !== 'undefined';
  return useWorker ? createWorkerClient(options) : createInProcessClient();
}

function createInProcessClient(): ComputeClient {
  const compute = createCompute();
  const client: Record<string, unknown> = { location: 'in-process', close() {} };
  for (const method of METHODS) {
    client[method] = async (...args: unknown[]) => (compute[method] as (...a: unknown[]) => unknown)(...args);
  }
  return client as ComputeClient;
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
  let current: { worker: Worker; remote: Remote<ComputeApi>; failed: Promise<never>; fail: (error: Error) => void } | null = null;
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

  async function call(method: (typeof METHODS)[number], args: unknown[]): Promise<unknown> {
    if (closed) throw new WorkerError('the compute worker was closed (memory.close() was called); create a new memory instance');
    const instance = current ?? start();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new WorkerError(`compute call '${method}' did not answer within ${timeoutMs} ms; the worker was restarted, retry the call`);
        restart(error);
        reject(error);
      }, timeoutMs);
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

  const client: Record<string, unknown> = {
    location: 'worker',
    close() {
      closed = true;
      restart(new WorkerError('the compute worker was closed'));
    },
  };
  for (const method of METHODS) client[method] = (...args: unknown[]) => call(method, args);
  client['loadPartition'] = (key: string, version: number, dim: number, rows: IndexRows, capacity?: number) =>
    call('loadPartition', [key, version, dim, transfer(rows, transferablesOf(rows)), capacity]);
  client['applyChanges'] = (key: string, from: number, to: number, upserts: IndexRows, removals: string[]) =>
    call('applyChanges', [key, from, to, transfer(upserts, transferablesOf(upserts)), removals]);
  return client as ComputeClient;
}
