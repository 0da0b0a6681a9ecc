/// <reference lib="webworker" />
/**
 * The module Web Worker: exposes the compute engine over Comlink. The endpoint is passed
 * explicitly: Comlink's default (`globalThis`) breaks under @vitest/web-worker.
 */
import { expose, type Endpoint } from 'comlink';
import * as speech from '../extract/speech/extractor';
import { createCompute } from './compute';

// Bundled, not loaded lazily: an application's bundler copies the worker as one file, so a
// chunk it imported at run time would be missing from the application's build.
expose(createCompute({ speech: async () => speech }), self as unknown as Endpoint);
