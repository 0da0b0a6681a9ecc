/**
 * Embedders whose model engram's compute hosts (engram/transformers): the Embedder a user
 * passes carries only a plain spec; createMemory loads that model inside the compute worker
 * when the memory opens, so a missing model fails there, and every embed runs off the page's
 * main thread.
 */
import { callPlugin, PluginError, WorkerError } from '../errors';
import type { ModelEmbedderSpec } from '../worker/api';
import type { ComputeClient } from '../worker/client';
import { loadEmbedder, type Embedder } from './embedder';

export function isModelEmbedder(embedder: unknown): embedder is Embedder & { worker: ModelEmbedderSpec } {
  const spec = (embedder as { worker?: { kind?: unknown; model?: unknown } } | null)?.worker;
  return typeof spec === 'object' && spec !== null && spec.kind === 'transformers' && typeof spec.model === 'string';
}

/** The embedder a memory uses: a hosted model, loaded in compute now; any other embedder once it has loaded (if it loads). */
export async function resolveEmbedder(embedder: Embedder, compute: ComputeClient): Promise<Embedder> {
  if (!isModelEmbedder(embedder)) return callPlugin('embedder load()', () => loadEmbedder(embedder));
  const spec = embedder.worker;
  const { id, dim } = await compute.loadModel(spec).catch(modelFailure);
  return { id, dim, embed: (texts) => compute.embedModel(spec, [...texts]).catch(modelFailure) };
}

/**
 * A PluginError thrown inside the worker arrives as a WorkerError whose cause has its name and
 * message only (and one from another copy of engram's modules fails `instanceof`): the model
 * failed, not the worker, so the caller gets a PluginError back.
 */
export function modelFailure(error: unknown): never {
  if (error instanceof PluginError) throw error;
  const inner = error instanceof WorkerError ? error.cause : error;
  if (inner instanceof Error && inner.name === 'PluginError') throw new PluginError(inner.message, { cause: error });
  throw error;
}
