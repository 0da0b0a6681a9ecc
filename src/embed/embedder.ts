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
