/**
 * The contract between the library and its compute (a module Web Worker behind Comlink, or
 * the same module in-process). Wire types only: plain data, typed arrays, no classes.
 */
import type { Scope, Weights } from '../schema';

/** Scope codes stored per row so the scan can filter without touching strings. */
export const SCOPE_CODE: Readonly<Record<Scope, number>> = Object.freeze({ user: 1, session: 2, app: 4 });

/**
 * Rows' 8-bit codes exactly as an 8-bit matrix holds them (matrix.ts, code-layout.ts), so a
 * packed snapshot loads by copying bytes instead of quantising f32 vectors: blocks of four rows,
 * `stride` bytes a row (`ceil(rows / 4) · 4 · stride` bytes, the rows past the last zero), and
 * per row the scale, the error norm and the row norm the scan's bound uses (as the matrix keeps
 * them, already rounded up). `layout` is {@link CODE_LAYOUT} of the writer: codes of another
 * layout are not loaded (the partition is rebuilt from its f32 records instead).
 */
export interface RowCodes {
  layout: number;
  stride: number;
  bytes: Int8Array;
  scales: Float32Array;
  errors: Float32Array;
  norms: Float32Array;
}

/** The layout of {@link RowCodes}: bump it whenever code-layout.ts or the codes' rounding changes. */
export const CODE_LAYOUT = 1;

/**
 * Rows of one partition in columnar form (transferable). Row `i` is `vectors[i*dim .. (i+1)*dim)`.
 * `sessionIds[i]` is `''` for rows that are not session-scoped.
 */
export interface IndexRows {
  ids: string[];
  /** Empty when `codes` holds the rows' vectors instead. */
  vectors: Float32Array;
  /**
   * The rows as 8-bit codes instead of f32 vectors (a snapshot written by an 8-bit compute):
   * only an 8-bit compute with the same stride and layout takes them.
   */
  codes?: RowCodes;
  updatedAt: Float64Array;
  halfLifeDays: Float32Array;
  importance: Float32Array;
  scopes: Uint8Array;
  sessionIds: string[];
  /**
   * The lexical channel's term ids (src/embed/terms.ts) of every row, flattened: row `i` is
   * `terms[termOffsets[i] .. termOffsets[i+1])`. Absent: the rows carry no text (they rank by
   * the vector alone until the partition is reloaded from records).
   */
  terms?: Uint32Array;
  termOffsets?: Uint32Array;
  /**
   * The same terms grouped by term (a snapshot chunk of at most 65,536 rows): ascending distinct
   * `terms`, and for term `t` the entries `entries[starts[t] … starts[t+1])`, each
   * `row << 16 | count` by ascending row. A load of new rows then indexes them per term, not
   * per row. Ignored when the rows are not all new to the partition.
   */
  postings?: RowPostings;
}

/** See {@link IndexRows.postings}. */
export interface RowPostings {
  terms: Uint32Array;
  starts: Uint32Array;
  entries: Uint32Array;
}

export interface ScanRequest {
  /** Partition keys to scan (the caller's own partition and its app's). */
  partitions: string[];
  query: Float32Array;
  /** The query's text, for the lexical channel; absent: relevance is the cosine alone. */
  queryText?: string;
  now: number;
  weights: Weights;
  k: number;
  /** Allowed scopes; rows of any other scope are skipped before a distance is computed. */
  scopes: Scope[];
  /** Session rows are visible only when their session id equals this. */
  sessionId?: string;
  /**
   * 8-bit codes: how many candidates each partition keeps for the exact re-rank (default
   * max(32, 2k)). A rescan asks for more when the first set could not prove the top k.
   */
  candidates?: number;
}

/**
 * One candidate of an 8-bit scan: every part of its exact score but the cosine, which needs
 * its f32 vector (read from the store for just the candidates: compute keeps none).
 */
export interface ScanCandidate {
  id: string;
  partition: string;
  /** The exact (f64) score without the dense term: lexical term + recency and importance weighted. */
  rest: number;
  /**
   * No more than this can be its exact score: its code score plus the code error bound. A
   * re-rank that has the top k above the ceilings of the candidates it did not read yet can
   * leave them unread (exact.ts).
   */
  ceiling: number;
  /** The row's BM25 score for the query (0 when it shares no term), the semantic channel's part included. */
  bm25: number;
  /** The part of `bm25` the semantic channel added (terms related in meaning to the query's). */
  semantic: number;
  recency: number;
  importance: number;
}

/**
 * What an 8-bit scan hands back instead of hits (src/worker/exact.ts finishes it): the best
 * rows of each partition by the code score, and per partition a ceiling: no row left out of
 * `candidates` scores exactly above it (the code score bound plus the code error bound).
 * So once the exact k-th best of the candidates reaches every ceiling, their top k is the
 * exact top k; otherwise the scan runs again with more candidates.
 */
export interface ScanCandidates {
  candidates: ScanCandidate[];
  /** Per entry of `ScanRequest.partitions`: −∞ when every row of it is a candidate. */
  ceilings: number[];
  /** Candidates kept per partition on this pass. */
  perPartition: number;
  /** The weight of the cosine in the score (the fused relevance's dense share). */
  dense: number;
  /** The query's best BM25 score over the scanned rows (0: no lexical match). */
  best: number;
}

/**
 * A scan's answer: the top k, or (8-bit codes) the candidates whose exact re-rank gives it.
 * `versions`: per entry of `ScanRequest.partitions`, the store version the scanned rows
 * reflect (-1: not loaded or stale), so a caller that reads the store afterwards can tell
 * whether the scan saw what it reads (vector-index.ts).
 */
export type ScanResult = ({ hits: ScanHit[] } | { candidates: ScanCandidates }) & { versions: number[] };

export interface ScanHit {
  id: string;
  partition: string;
  score: number;
  /** The fused relevance (see compute.ts): the cosine when the query has no lexical match. */
  relevance: number;
  cosine: number;
  /** BM25 relative to the query's best lexical match among the scanned rows (0-1). */
  lexical: number;
  /** The part of `lexical` that words related in meaning to the query's brought (the semantic channel; 0 without its table). */
  semantic: number;
  recency: number;
  importance: number;
}

export interface ComputeStats {
  partitions: number;
  rows: number;
  /** Bytes the scan keeps resident: the kernel's memory (vectors or codes, columns), the lexical index (capacity, not just rows in use), the semantic channel's table once loaded. */
  bytes: number;
  /** Which scan kernel runs: WebAssembly SIMD, or the JS fallback where SIMD is missing. */
  kernel: 'wasm-simd' | 'js';
  /** How the kernel's memory holds the vectors. */
  codes: 'f32' | 'i8';
  /** Owners (cache keys) whose token features the hash embedder holds. */
  tokenCaches: number;
}

/** A partition's rows copied out in chunks (for writing a packed snapshot of the store). */
export interface PartitionExport {
  version: number;
  dim: number;
  chunks: IndexRows[];
}

/** A model compute loads and runs itself (engram/transformers): plain data, so it crosses to the worker. */
export interface ModelEmbedderSpec {
  kind: 'transformers';
  model: string;
  allowRemoteModels: boolean;
  localModelPath?: string;
  remoteHost?: string;
  dtype?: string;
  device?: string;
  wasmPaths?: string;
  moduleUrl?: string;
  threads?: number;
}

/** Every method may be called across the worker boundary: arguments and results are cloneable. */
export interface ComputeApi {
  /**
   * Hash-embeds texts (the built-in embedder). Token features are cached per `cacheKey` (the
   * owner's partition: one owner's text never serves another's); without one, none is kept.
   */
  embed(texts: string[], dim: number, cacheKey?: string): Float32Array[];
  /**
   * Replaces a partition's rows wholesale and records the store version they reflect.
   * `capacity` reserves room for that many rows (a load that arrives in chunks appends the
   * rest with `applyChanges(key, v, v, chunk, [])` without regrowing). Returns false, holding
   * nothing for `key`, when the rows come as codes this compute cannot take (it holds f32, or
   * another stride or layout): the caller loads the partition from f32 rows instead.
   */
  loadPartition(key: string, version: number, dim: number, rows: IndexRows, capacity?: number): boolean;
  /**
   * Applies one committed write. Returns false (and marks the partition stale) when the
   * partition is not at `fromVersion`: another instance wrote in between, so the caller must
   * reload; or when the upserts come as codes this compute cannot take (see loadPartition).
   */
  applyChanges(key: string, fromVersion: number, toVersion: number, upserts: IndexRows, removals: string[]): boolean;
  /** The store version the partition reflects, or -1 when it is not loaded or stale. */
  partitionVersion(key: string): number;
  dropPartition(key: string): void;
  /**
   * The partition's active rows in chunks of `chunkRows`, or null when it is not loaded or
   * stale. An 8-bit partition exports its codes (`codes`, `vectors` empty): it holds no f32 rows.
   */
  exportPartition(key: string, chunkRows: number): PartitionExport | null;
  /**
   * Scan, blend and select the top k in one pass. With 8-bit codes: the candidates of the
   * exact re-rank instead (finish with `finishScan`, src/worker/exact.ts).
   */
  scan(request: ScanRequest): ScanResult;
  /**
   * For each query, ids of rows in `key` of `scope` (for session scope with `sessionId`, of that
   * session only) with cosine ≥ threshold: the `limit` most similar, most similar first, and any
   * tied with the `limit`-th (exact, from the f32 rows, where compute holds them). 8-bit codes
   * without the f32 copy: a superset of those by the code scores, every row that its own error
   * bound lets reach the threshold and the limit-th best, so the caller's exact comparison
   * (plan.ts `sweep`) finds the same ones.
   */
  neighbours(key: string, queries: Float32Array[], threshold: number, scope: Scope, limit?: number, sessionId?: string): string[][];
  stats(): ComputeStats;
  /** Loads a model (once per spec) and resolves to its embedder id and vector length. @throws PluginError when it cannot be loaded. */
  loadModel(spec: ModelEmbedderSpec): Promise<{ id: string; dim: number }>;
  /** Embeds texts with a model loaded by {@link ComputeApi.loadModel} (loading it first if needed). */
  embedModel(spec: ModelEmbedderSpec, texts: string[]): Promise<Float32Array[]>;
  /** Drops caches that may hold user text (the hash embedder's token cache); erasure calls it. */
  clearCaches(): void;
  /**
   * Takes the semantic channel's table (its binary asset's bytes: worker/concepts.ts
   * `decodeConcepts`, read by the client and posted) and turns the channel on for every
   * later scan; returns the number of terms it knows. Before it, scans are lexical and cosine only.
   */
  loadConcepts(table: ArrayBuffer): number;
}
