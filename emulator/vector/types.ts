// The seam between the emulator's database layer (namespaces, WAL, indexer, query planning) and its vector engine
// (storage, SIMD scans, ANN index). Rows are dense internal numbers 0..rowCount-1 in append order; the database layer
// maps document ids to rows and tells the engine which rows are dead (deleted or overwritten) or allowed (filters).
// Owned by the vector engine; change it only together with its users.
import type { DistanceMetric } from '../../lib/turbopuffer-wire';

export type { DistanceMetric };

/** One result: internal row number and its distance under the column's metric (lower is better). */
export interface Hit {
  row: number;
  dist: number;
}

/** A set of rows as a dense bitset: bit r of word r >>> 5. Length covers at least rowCount bits. */
export type RowBitset = Uint32Array;

export interface SearchOptions {
  k: number;
  /** Rows whose bit is set are skipped (deleted or superseded documents). */
  dead?: RowBitset;
  /** When given, only rows whose bit is set qualify (filter candidates). */
  allow?: RowBitset;
}

/** How a search went, for the query's `performance` block. */
export interface SearchStats {
  /** Rows scored exhaustively (the unindexed tail counts here: performance.exhaustive_search_count). */
  exhaustiveRows: number;
  /** Rows scored through the ANN structure. */
  annRows: number;
}

export interface VectorColumn {
  readonly dims: number;
  readonly metric: DistanceMetric;
  /** Rows appended so far. */
  readonly rowCount: number;
  /** Rows covered by the published ANN index: [0, indexedRows). The rest is the unindexed tail. */
  readonly indexedRows: number;
  /** Appends rows (length a multiple of dims) and returns the first new row number. Never blocks on indexing. */
  append(vectors: Float32Array): number;
  /** The stored vector of a row (a copy). */
  get(row: number): Float32Array;
  /** Exact scan of rows [from, to), e.g. the unindexed tail (strong: all of it; eventual: a bounded prefix). */
  scan(
    query: Float32Array,
    range: { from: number; to: number },
    options: SearchOptions,
  ): Promise<{ hits: Hit[]; stats: SearchStats }>;
  /** Approximate search over the indexed rows [0, indexedRows). */
  ann(query: Float32Array, options: SearchOptions): Promise<{ hits: Hit[]; stats: SearchStats }>;
  /**
   * Extends the index to cover rows [0, to) off the request thread; resolves when the new index is published
   * (queries see either the old or the new index, never a half-built one).
   */
  indexTo(to: number): Promise<void>;
  /** Releases workers and memory. */
  close(): Promise<void>;
}
