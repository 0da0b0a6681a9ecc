/**
 * The embedding contract. engram ships an offline hash embedder; a real model plugs in by
 * passing any object of this shape as `createMemory({ embedder })`.
 */
export interface Embedder {
  /** Stable identifier stored on every record (`embedderId`), so vectors from different models never mix. */
  readonly id: string;
  /** Length of every vector `embed` returns. */
  readonly dim: number;
  /** One L2-normalised vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]> | Float32Array[];
  /**
   * Optional: for an embedder that learns its `id` or `dim` from the model (a first request, a
   * model file). `createMemory` awaits it before it reads either, since stored vectors are
   * checked against both when the memory opens; a rejection fails `createMemory`.
   */
  load?(): Promise<unknown>;
}

/**
 * The `embedderId` of a record stored without its vector: an erasure that needed a vector for
 * a new text while the embedder failed (forget/replay.ts `vectorsLater`). It holds zeros, and
 * like any other embedder's record it is out of the scan and counted as foreign, so
 * `reembed()` gives it its vector, and so does the owner's next `retrieve`.
 */
export const NEEDS_VECTOR = 'engram:needs-vector';

/** Lets an embedder that learns its id or dim finish learning them; any other is ready as it is. */
export async function loadEmbedder(embedder: Embedder): Promise<Embedder> {
  if (typeof embedder?.load === 'function') await embedder.load();
  return embedder;
}

/**
 * One vector per distinct text of `texts`, embedded `batch` texts per call (a long replay or a
 * large import must not become one giant request to a model), keyed by the text.
 */
export async function embedDistinct(embedder: Embedder, texts: Iterable<string>, batch: number): Promise<Map<string, Float32Array>> {
  const distinct = [...new Set(texts)];
  const vectors = new Map<string, Float32Array>();
  for (let start = 0; start < distinct.length; start += batch) {
    const slice = distinct.slice(start, start + batch);
    const embedded = await embedder.embed(slice);
    slice.forEach((text, i) => vectors.set(text, embedded[i]!));
  }
  return vectors;
}
