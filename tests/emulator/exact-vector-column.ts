// A tiny exact VectorColumn for the database layer's tests: plain TypeScript, every search exhaustive, and hooks to
// hold indexing or slow scans so tests can observe handovers and concurrency deterministically.
import type {
  DistanceMetric,
  Hit,
  SearchOptions,
  SearchStats,
  VectorColumn,
} from '../../emulator/vector/types';

export interface ExactColumnHooks {
  /** Awaited before indexTo publishes (hold it to keep rows in the tail). */
  beforePublish?: (to: number) => Promise<void>;
  /** Awaited inside every scan/ann call (slow queries for concurrency tests). */
  beforeSearch?: () => Promise<void>;
}

function has(set: Uint32Array | undefined, row: number): boolean {
  return set !== undefined && row >>> 5 < set.length && (set[row >>> 5] & (1 << (row & 31))) !== 0;
}

class ExactVectorColumn implements VectorColumn {
  private data = new Float32Array(0);
  rowCount = 0;
  indexedRows = 0;
  /** Every indexTo target, in call order. */
  readonly indexCalls: number[] = [];
  closed = false;

  constructor(
    readonly dims: number,
    readonly metric: DistanceMetric,
    private readonly hooks: ExactColumnHooks = {},
  ) {}

  append(vectors: Float32Array): number {
    const first = this.rowCount;
    const next = new Float32Array(this.data.length + vectors.length);
    next.set(this.data);
    next.set(vectors, this.data.length);
    this.data = next;
    this.rowCount += vectors.length / this.dims;
    return first;
  }

  get(row: number): Float32Array {
    return this.data.slice(row * this.dims, (row + 1) * this.dims);
  }

  distance(query: Float32Array, row: number): number {
    let dot = 0;
    let qq = 0;
    let rr = 0;
    let l2 = 0;
    for (let i = 0; i < this.dims; i++) {
      const x = this.data[row * this.dims + i];
      dot += x * query[i];
      qq += query[i] * query[i];
      rr += x * x;
      l2 += (x - query[i]) ** 2;
    }
    if (this.metric === 'euclidean_squared') return l2;
    return qq === 0 || rr === 0 ? 1 : 1 - dot / Math.sqrt(qq * rr);
  }

  private search(query: Float32Array, from: number, to: number, options: SearchOptions): Hit[] {
    const hits: Hit[] = [];
    for (let row = from; row < to; row++) {
      if (has(options.dead, row)) continue;
      if (options.allow && !has(options.allow, row)) continue;
      hits.push({ row, dist: this.distance(query, row) });
    }
    return hits.sort((a, b) => a.dist - b.dist || a.row - b.row).slice(0, options.k);
  }

  async scan(query: Float32Array, range: { from: number; to: number }, options: SearchOptions) {
    await this.hooks.beforeSearch?.();
    const stats: SearchStats = { exhaustiveRows: range.to - range.from, annRows: 0 };
    return { hits: this.search(query, range.from, range.to, options), stats };
  }

  async ann(query: Float32Array, options: SearchOptions) {
    await this.hooks.beforeSearch?.();
    const stats: SearchStats = { exhaustiveRows: 0, annRows: this.indexedRows };
    return { hits: this.search(query, 0, this.indexedRows, options), stats };
  }

  async indexTo(to: number): Promise<void> {
    this.indexCalls.push(to);
    await this.hooks.beforePublish?.(to);
    this.indexedRows = Math.max(this.indexedRows, to);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A factory that remembers the columns it made. */
export function exactFactory(hooks: ExactColumnHooks = {}) {
  const columns: ExactVectorColumn[] = [];
  const factory = (spec: { dims: number; metric: DistanceMetric }) => {
    const column = new ExactVectorColumn(spec.dims, spec.metric, hooks);
    columns.push(column);
    return column;
  };
  return { factory, columns };
}
