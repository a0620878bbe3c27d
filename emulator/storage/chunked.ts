// Append-only per-row arrays stored in fixed-size chunks. A growing flat array is reallocated and copied into fresh
// memory as it grows (at 1M rows, megabytes at a time: whose page faults are slow: docs/engine-measurements.md §0, in one blocking
// step); chunks never move, so appending a row costs the same at any size.

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS; // 65,536 entries per chunk
const MASK = CHUNK - 1;

/** Numbers by row (Float64 storage); unset entries read as `fill`. */
export class ChunkedFloat64 {
  private readonly chunks: Float64Array[] = [];

  constructor(private readonly fill = 0) {}

  get(i: number): number {
    const chunk = this.chunks[i >>> CHUNK_BITS];
    return chunk === undefined ? this.fill : chunk[i & MASK];
  }

  set(i: number, value: number): void {
    const at = i >>> CHUNK_BITS;
    while (this.chunks.length <= at) {
      const chunk = new Float64Array(CHUNK);
      if (this.fill !== 0) chunk.fill(this.fill);
      this.chunks.push(chunk);
    }
    this.chunks[at][i & MASK] = value;
  }
}

/** Values by row for any type (ids, strings); unset entries read as undefined. */
export class ChunkedList<T> {
  private readonly chunks: T[][] = [];
  length = 0;

  get(i: number): T {
    return this.chunks[i >>> CHUNK_BITS]?.[i & MASK] as T;
  }

  push(value: T): void {
    const at = this.length >>> CHUNK_BITS;
    if (at === this.chunks.length) this.chunks.push([]);
    this.chunks[at].push(value);
    this.length++;
  }
}
