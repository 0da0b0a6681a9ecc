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
