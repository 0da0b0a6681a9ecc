/// <reference lib="webworker" />
/**
 * The module Web Worker: exposes the compute engine over Comlink. The endpoint is passed
 * explicitly: Comlink's default (`globalThis`) breaks under @vitest/web-worker.
 */
import { expose, type Endpoint } from 'comlink';
import { exportTransfer } from './transfers';
import { createCompute } from './compute';

const compute = createCompute();
// An export (a snapshot of a partition: 10,000 rows are ~13 MB with the f32 copy) moves its
// buffers to the page instead of copying them: their copy was a stall of ~100 ms in the page's
// message task. They are fresh copies of the partition's (partition.ts exportRows), so nothing
// here loses them.
expose({ ...compute, exportPartition: (key: string, chunkRows: number) => exportTransfer(compute.exportPartition(key, chunkRows)) }, self as unknown as Endpoint);
