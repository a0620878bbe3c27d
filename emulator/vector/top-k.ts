// The k best (smallest distance) rows of a stream: a bounded max-heap on typed arrays, so a scan keeps only rows
// that beat the current k-th best. Ties break by row number (lower wins) so every path returns the same rows.
import type { Hit } from './types';

export class TopK {
  readonly k: number;
  private size = 0;
  private readonly dists: Float64Array;
  private readonly rows: Float64Array;

  constructor(k: number) {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
    this.k = k;
    this.dists = new Float64Array(k);
    this.rows = new Float64Array(k);
  }

  get count(): number {
    return this.size;
  }

  /** Distance a new row must beat (or tie with a lower row number) to enter; Infinity until the heap is full. */
  get threshold(): number {
    return this.size < this.k ? Number.POSITIVE_INFINITY : this.dists[0];
  }

  push(dist: number, row: number): void {
    if (this.size < this.k) {
      this.siftUp(this.size++, dist, row);
      return;
    }
    const topDist = this.dists[0];
    if (dist > topDist || (dist === topDist && row >= this.rows[0])) return;
    this.siftDown(dist, row);
  }

  /** The kept rows, best first. */
  hits(): Hit[] {
    const out: Hit[] = [];
    for (let i = 0; i < this.size; i++) out.push({ row: this.rows[i], dist: this.dists[i] });
    return out.sort((a, b) => a.dist - b.dist || a.row - b.row);
  }

  private worse(i: number, dist: number, row: number): boolean {
    const d = this.dists[i];
    return d > dist || (d === dist && this.rows[i] > row);
  }

  private siftUp(at: number, dist: number, row: number): void {
    let i = at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.worse(parent, dist, row)) break;
      this.dists[i] = this.dists[parent];
      this.rows[i] = this.rows[parent];
      i = parent;
    }
    this.dists[i] = dist;
    this.rows[i] = row;
  }

  /** Replaces the root (the worst kept row) and restores the heap. */
  private siftDown(dist: number, row: number): void {
    const n = this.size;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.worse(right, this.dists[left], this.rows[left]) ? right : left;
      if (!this.worse(child, dist, row)) break;
      this.dists[i] = this.dists[child];
      this.rows[i] = this.rows[child];
      i = child;
    }
    this.dists[i] = dist;
    this.rows[i] = row;
  }
}

/** Merges per-thread results into the k best overall. */
export function mergeHits(lists: Hit[][], k: number): Hit[] {
  const top = new TopK(k);
  for (const list of lists) for (const h of list) top.push(h.dist, h.row);
  return top.hits();
}
