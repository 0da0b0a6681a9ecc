/// <reference lib="webworker" />
/**
 * The module Web Worker: exposes the compute engine over Comlink. The endpoint is passed
 * explicitly: Comlink's default (`globalThis`) breaks under @vitest/web-worker.
 */
import { expose, type Endpoint } from 'comlink';
import { createCompute } from './compute';

expose(createCompute(), self as unknown as Endpoint);
