/**
 * Bounded top-k selection: a min-heap of the k best scores seen so far, so a scan over N
 * rows costs O(N log k) and never sorts all N scores. Ties keep the earlier row.
 */
export interface TopKEntry {
  score: number;
  relevance: number;
  tag: number;
  row: number;
}

export class TopK {
  private readonly heap: TopKEntry[] = [];
  private sequence = 0;
  private readonly order: number[] = [];

  constructor(readonly k: number) {}

  /** The score a new entry must beat to enter a full heap (−Infinity while not full). */
  get threshold(): number {
    return this.heap.length < this.k ? -Infinity : this.heap[0]!.score;
  }

  push(score: number, relevance: number, tag: number, row: number): void {
    if (this.k <= 0) return;
    const entry = { score, relevance, tag, row };
    const seq = this.sequence++;
    if (this.heap.length < this.k) {
      this.heap.push(entry);
      this.order.push(seq);
      this.siftUp(this.heap.length - 1);
    } else if (score > this.heap[0]!.score) {
      this.heap[0] = entry;
      this.order[0] = seq;
      this.siftDown(0);
    }
  }

  /** Best first; equal scores in the order they were pushed. Empties the heap. */
  drain(): TopKEntry[] {
    const pairs = this.heap.map((entry, i) => ({ entry, seq: this.order[i]! }));
    pairs.sort((a, b) => b.entry.score - a.entry.score || a.seq - b.seq);
    this.heap.length = 0;
    this.order.length = 0;
    return pairs.map((pair) => pair.entry);
  }

  /** Heap order: lower score is "smaller"; on equal scores the later push is smaller (evicted first). */
  private less(i: number, j: number): boolean {
    const a = this.heap[i]!.score;
    const b = this.heap[j]!.score;
    return a < b || (a === b && this.order[i]! > this.order[j]!);
  }

  private swap(i: number, j: number): void {
    [this.heap[i], this.heap[j]] = [this.heap[j]!, this.heap[i]!];
    [this.order[i], this.order[j]] = [this.order[j]!, this.order[i]!];
  }

  private siftUp(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(index: number): void {
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.heap.length && this.less(left, smallest)) smallest = left;
      if (right < this.heap.length && this.less(right, smallest)) smallest = right;
      if (smallest === i) break;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
