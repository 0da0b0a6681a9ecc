/**
 * One partition's lexical channel: BM25 over term ids (src/embed/terms.ts), kept in step with
 * the partition's rows on every write exactly as the vector matrix is (same row numbers, same
 * swap-remove). Postings are per term: the rows that hold it and how often, so a query touches
 * only rows sharing one of its terms. The corpus statistics a score uses (rows, lengths, each
 * term's document frequency) are those of every partition one query reads, summed
 * ({@link corpusOf}): a memory scores the same whichever partition it sits in.
 */

/** Okapi BM25 saturation and length normalisation (tuned on the LoCoMo dev split; 1.2/0.75 were 1 point lower). */
export const BM25_K1 = 0.9;
export const BM25_B = 0.4;

interface Posting {
  rows: Int32Array;
  counts: Uint16Array;
  size: number;
}

/** BM25's corpus statistics for one query: over every partition it reads. */
export interface Corpus {
  /** Rows that hold at least one term. */
  rows: number;
  totalLength: number;
  /** Query term → rows holding it. */
  frequency: ReadonlyMap<number, number>;
}

/** The statistics of `indexes` together, for the distinct `queryTerms`. */
export function corpusOf(indexes: readonly LexicalIndex[], queryTerms: ReadonlySet<number>): Corpus {
  const frequency = new Map<number, number>();
  let rows = 0;
  let totalLength = 0;
  for (const index of indexes) {
    const part = index.statistics(queryTerms);
    rows += part.rows;
    totalLength += part.totalLength;
    for (const [term, count] of part.frequency) frequency.set(term, (frequency.get(term) ?? 0) + count);
  }
  return { rows, totalLength, frequency };
}

/**
 * A chunk's postings as a snapshot stores them (wire form: worker/api.ts `RowPostings`): its
 * distinct terms ascending, and for term `t` the entries `starts[t] … starts[t+1]`, each
 * `row << 16 | count` (the chunk's own row numbers, below 65,536).
 */
export interface ChunkPostings {
  terms: Uint32Array;
  starts: Uint32Array;
  entries: Uint32Array;
}

/** Rows loaded in bulk ({@link LexicalIndex.load}) whose per-row term lists are built only when a write or an export needs one. */
interface Segment {
  first: number;
  count: number;
  terms: Uint32Array;
  termOffsets: Uint32Array;
}

/** Rows a chunk's postings can number (the row sits in an entry's high 16 bits). */
export const MAX_POSTING_ROWS = 65_536;

/** The postings of rows whose term ids (with repetition) are `terms[termOffsets[i] … termOffsets[i+1])`: what {@link LexicalIndex.load} takes. */
export function chunkPostings(terms: Uint32Array, termOffsets: Uint32Array): ChunkPostings {
  const rows = termOffsets.length - 1;
  if (rows > MAX_POSTING_ROWS) throw new RangeError(`a chunk's postings number at most ${MAX_POSTING_ROWS} rows, not ${rows}`);
  const lists = new Map<number, number[]>();
  for (let row = 0; row < rows; row++) {
    const sorted = terms.slice(termOffsets[row]!, termOffsets[row + 1]!).sort();
    for (let i = 0; i < sorted.length; ) {
      const term = sorted[i]!;
      let end = i + 1;
      while (end < sorted.length && sorted[end] === term) end++;
      let list = lists.get(term);
      if (!list) lists.set(term, (list = []));
      list.push(((row << 16) | Math.min(end - i, 65_535)) >>> 0);
      i = end;
    }
  }
  const distinct = Uint32Array.from(lists.keys()).sort();
  const starts = new Uint32Array(distinct.length + 1);
  distinct.forEach((term, t) => (starts[t + 1] = starts[t]! + lists.get(term)!.length));
  const entries = new Uint32Array(starts[distinct.length]!);
  distinct.forEach((term, t) => entries.set(lists.get(term)!, starts[t]!));
  return { terms: distinct, starts, entries };
}

export class LexicalIndex {
  /** Per row: its distinct term ids and each one's count, interleaved `[term, count, …]` (absent for a row of a segment until needed: see {@link packedOf}). */
  private rowTerms: (Uint32Array | undefined)[] = [];
  /** Bulk-loaded rows, latest last; clipped at every truncate, so none covers a row past the partition's end. */
  private segments: Segment[] = [];
  private lengths: number[] = [];
  private totalLength = 0;
  private rowsWithTerms = 0;
  private readonly postings = new Map<number, Posting>();
  /** Scratch for {@link set}: one row's terms, sorted. */
  private sorted = new Uint32Array(64);

  /**
   * Appends rows `first … first + count - 1` (new rows, right after every row held) with their
   * terms (`terms[termOffsets[i] … termOffsets[i+1])`, as in the wire form) and the chunk's
   * postings of the same terms: each posting grows once per chunk, no row is sorted, and a row's
   * own term list is built only when a write or an export touches it.
   */
  load(first: number, count: number, terms: Uint32Array, termOffsets: Uint32Array, postings: ChunkPostings): void {
    this.truncate(first);
    for (let i = 0; i < count; i++) {
      const length = termOffsets[i + 1]! - termOffsets[i]!;
      this.lengths[first + i] = length;
      this.totalLength += length;
      if (length > 0) this.rowsWithTerms++;
    }
    this.segments.push({ first, count, terms, termOffsets });
    const { starts, entries } = postings;
    for (let t = 0; t < postings.terms.length; t++) {
      const term = postings.terms[t]!;
      const from = starts[t]!;
      const added = starts[t + 1]! - from;
      let posting = this.postings.get(term);
      if (!posting) this.postings.set(term, (posting = { rows: new Int32Array(added), counts: new Uint16Array(added), size: 0 }));
      else if (posting.size + added > posting.rows.length) grow(posting, Math.max(posting.size + added, posting.rows.length * 2));
      const { rows, counts } = posting;
      for (let j = 0; j < added; j++) {
        const entry = entries[from + j]!;
        rows[posting.size + j] = first + (entry >>> 16);
        counts[posting.size + j] = entry & 0xffff;
      }
      posting.size += added;
    }
  }

  /** Replaces row `row`'s terms (ids with repetition; empty: the row has no text). */
  set(row: number, terms: ArrayLike<number>): void {
    this.clear(row);
    // Distinct terms and their counts from a sorted copy, not a Map per row: a load sets
    // every row of the partition, and a row holds tens of terms.
    const packed = this.pack(terms, row);
    this.rowTerms[row] = packed;
    this.lengths[row] = terms.length;
    this.totalLength += terms.length;
    if (terms.length > 0) this.rowsWithTerms++;
  }

  /** Removes row `row` from every posting (its slot is then empty). */
  clear(row: number): void {
    const packed = this.packedOf(row);
    if (!packed) return;
    for (let i = 0; i < packed.length; i += 2) {
      const posting = this.postings.get(packed[i]!)!;
      const at = indexOf(posting, row);
      posting.size--;
      posting.rows[at] = posting.rows[posting.size]!;
      posting.counts[at] = posting.counts[posting.size]!;
      if (posting.size === 0) this.postings.delete(packed[i]!);
    }
    this.totalLength -= this.lengths[row]!;
    if (this.lengths[row]! > 0) this.rowsWithTerms--;
    this.rowTerms[row] = EMPTY;
    this.lengths[row] = 0;
  }

  /** Row `from` becomes row `to` (the partition's swap-remove); `to` must be cleared first. */
  move(from: number, to: number): void {
    const packed = this.packedOf(from) ?? EMPTY;
    for (let i = 0; i < packed.length; i += 2) {
      const posting = this.postings.get(packed[i]!)!;
      posting.rows[indexOf(posting, from)] = to;
    }
    this.rowTerms[to] = packed;
    this.lengths[to] = this.lengths[from] ?? 0;
    this.truncate(from);
  }

  /** Forgets slots from `size` on (after the partition shrank). */
  truncate(size: number): void {
    this.rowTerms.length = Math.min(this.rowTerms.length, size);
    this.lengths.length = Math.min(this.lengths.length, size);
    this.segments = this.segments.filter((segment) => segment.first < size);
    for (const segment of this.segments) segment.count = Math.min(segment.count, size - segment.first);
  }

  /** Row `row`'s term ids with repetition (for exporting the row). */
  termsOf(row: number): Uint32Array {
    const packed = this.packedOf(row) ?? EMPTY;
    const out: number[] = [];
    for (let i = 0; i < packed.length; i += 2) for (let c = 0; c < packed[i + 1]!; c++) out.push(packed[i]!);
    return Uint32Array.from(out);
  }

  /** This partition's share of a {@link Corpus} for `queryTerms`. */
  statistics(queryTerms: ReadonlySet<number>): Corpus {
    const frequency = new Map<number, number>();
    for (const term of queryTerms) {
      const posting = this.postings.get(term);
      if (posting) frequency.set(term, posting.size);
    }
    return { rows: this.rowsWithTerms, totalLength: this.totalLength, frequency };
  }

  /**
   * BM25 of every row for the distinct `queryTerms`, written into `scores` (rows `[0, size)`,
   * zero where no term matched), with the statistics of `corpus` (default: this partition's),
   * each term's part times its weight in `weights` (default 1). Returns the rows that matched at
   * least one term.
   */
  score(queryTerms: ReadonlySet<number>, scores: Float32Array, size: number, corpus: Corpus = this.statistics(queryTerms), weights?: ReadonlyMap<number, number>): number[] {
    scores.fill(0, 0, size);
    const touched: number[] = [];
    const n = corpus.rows;
    if (n === 0) return touched;
    const average = corpus.totalLength / n;
    for (const term of queryTerms) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const df = corpus.frequency.get(term) ?? posting.size;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (weights?.get(term) ?? 1);
      for (let i = 0; i < posting.size; i++) {
        const row = posting.rows[i]!;
        const tf = posting.counts[i]!;
        const norm = BM25_K1 * (1 - BM25_B + (BM25_B * this.lengths[row]!) / average);
        if (scores[row] === 0) touched.push(row);
        scores[row]! += (idf * tf * (BM25_K1 + 1)) / (tf + norm);
      }
    }
    return touched;
  }

  /** Approximate bytes held: postings and per-row term lists. */
  get byteLength(): number {
    let bytes = this.lengths.length * 8;
    for (const posting of this.postings.values()) bytes += posting.rows.byteLength + posting.counts.byteLength + 48;
    for (const packed of this.rowTerms) bytes += (packed?.byteLength ?? 0) + 16;
    for (const segment of this.segments) bytes += segment.terms.byteLength + segment.termOffsets.byteLength;
    return bytes;
  }

  /** Row `row`'s `[term, count, …]`: as set, or built (once) from the latest segment that holds it; undefined for a slot never written. */
  private packedOf(row: number): Uint32Array | undefined {
    const packed = this.rowTerms[row];
    if (packed) return packed;
    for (let s = this.segments.length - 1; s >= 0; s--) {
      const { first, count, terms, termOffsets } = this.segments[s]!;
      if (row < first || row >= first + count) continue;
      const built = this.pack(terms.subarray(termOffsets[row - first]!, termOffsets[row - first + 1]!), null);
      this.rowTerms[row] = built;
      return built;
    }
    return undefined;
  }

  /** `terms` (ids with repetition) as `[term, count, …]` by ascending term; each distinct term is appended to the postings of `row` unless it is null. */
  private pack(terms: ArrayLike<number>, row: number | null): Uint32Array {
    if (this.sorted.length < terms.length) this.sorted = new Uint32Array(Math.max(terms.length, this.sorted.length * 2));
    const sorted = this.sorted.subarray(0, terms.length);
    sorted.set(terms);
    sorted.sort();
    let distinct = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
    const packed = new Uint32Array(distinct * 2);
    for (let i = 0, at = 0; i < sorted.length; ) {
      const term = sorted[i]!;
      let end = i + 1;
      while (end < sorted.length && sorted[end] === term) end++;
      const count = Math.min(end - i, 65_535);
      packed[at++] = term;
      packed[at++] = count;
      if (row !== null) this.append(term, row, count);
      i = end;
    }
    return packed;
  }

  private append(term: number, row: number, count: number): void {
    let posting = this.postings.get(term);
    if (!posting) this.postings.set(term, (posting = { rows: new Int32Array(2), counts: new Uint16Array(2), size: 0 }));
    if (posting.size === posting.rows.length) grow(posting, Math.max(2, posting.size * 2));
    posting.rows[posting.size] = row;
    posting.counts[posting.size] = count;
    posting.size++;
  }
}

const EMPTY = new Uint32Array(0);

function grow(posting: Posting, capacity: number): void {
  const rows = new Int32Array(capacity);
  rows.set(posting.rows.subarray(0, posting.size));
  const counts = new Uint16Array(capacity);
  counts.set(posting.counts.subarray(0, posting.size));
  posting.rows = rows;
  posting.counts = counts;
}

function indexOf(posting: Posting, row: number): number {
  const at = posting.rows.subarray(0, posting.size).indexOf(row);
  if (at < 0) throw new RangeError(`lexical index out of step: row ${row} missing from a posting it should be in`);
  return at;
}
