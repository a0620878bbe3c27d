// One vector column: append-only rows in geometrically growing shared-memory segments, exact scans of any row
// range, ANN over the indexed prefix, and an index extended off the request thread and published atomically.
//
//   rows:      [ indexed: int8 codes + per-segment IVF or flat | tail: f32, codes once quantised | f32 ]  append ->
//              0                                          indexedRows                       quantized   rowCount
//   snapshot:  { indexedRows, ivf per full segment }  replaced whole by indexTo; a search reads the snapshot it
//              started with, and everything a snapshot reads was written before it was published.
import { annPartCost, likeData, sketches } from './ann-scan';
import { countRows } from './bitset';
import type { Executor, SearchTask } from './executor';
import { IVF_MIN_ROWS } from './index-build';
import { segmentCapacity, segmentLayout } from './layout';
import { rangeParts, type SegmentSpan, splitByCost } from './plan';
import { allocateSegmentMemory } from './segment-runtime';
import { type AnnPart, type IndexSegmentJob, prepareQuery, type TaskResult } from './tasks';
import { mergeHits } from './top-k';
import type { DistanceMetric, Hit, RowBitset, SearchOptions, SearchStats, VectorColumn } from './types';

/** Searches touching fewer values (rows x dims) than this run on the calling thread: a worker round trip costs more. */
const LOCAL_WORK = 1 << 21;
/** Vector bytes kept committed ahead of the append cursor: as much as the column holds, within these bounds. */
const PREFAULT_AHEAD_BYTES = 64 * 1024 * 1024;
const PREFAULT_MIN_BYTES = 1024 * 1024;
/** Filtered ANN with at most this many candidate rows (or this share of the index) scans the candidates exactly. */
const EXACT_FALLBACK_ROWS = 4096;
const EXACT_FALLBACK_SHARE = 0.05;
/** int8 candidates re-scored exactly, per thread: max(RERANK_MIN, RERANK_PER_K * k). */
const RERANK_MIN = 40;
const RERANK_PER_K = 4;

interface Segment extends SegmentSpan {
  id: number;
}

interface IvfState {
  lists: number;
  nprobe: number;
}

interface Snapshot {
  readonly indexedRows: number;
  /** Segment id -> its IVF; full segments without an entry (and the last, partial one) are scanned flat. */
  readonly ivf: ReadonlyMap<number, IvfState>;
}

/** Rows [0, n) not in `dead`, as a bitset. */
function liveRows(n: number, dead: RowBitset | undefined): RowBitset {
  const live = new Uint32Array(Math.ceil(n / 32));
  for (let w = 0; w < live.length; w++) live[w] = ~(dead?.[w] ?? 0);
  if (n % 32 !== 0) live[live.length - 1] &= (1 << (n % 32)) - 1;
  return live;
}

export interface ColumnConfig {
  dims: number;
  metric: DistanceMetric;
  executor: Executor;
}

type SearchResult = { hits: Hit[]; stats: SearchStats };

export class SegmentedColumn implements VectorColumn {
  readonly dims: number;
  readonly metric: DistanceMetric;
  private readonly executor: Executor;
  private readonly segments: Segment[] = [];
  private rows = 0;
  /** Rows whose vector pages have been handed to the executor's prefaulter. */
  private prefaulted = 0;
  /** Rows [0, quantized) have int8 codes and residuals: exact scans bound them with int8 first. */
  private quantized = 0;
  private quantizeFailed = false;
  private snapshot: Snapshot = { indexedRows: 0, ivf: new Map() };
  private indexing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(config: ColumnConfig) {
    const { dims, metric } = config;
    if (!Number.isInteger(dims) || dims < 1 || dims > 65_536)
      throw new RangeError(`vector column: dims must be an integer in 1..65536, got ${dims}`);
    if (metric !== 'cosine_distance' && metric !== 'euclidean_squared')
      throw new RangeError(
        `vector column: metric must be cosine_distance or euclidean_squared, got ${String(metric)}`,
      );
    this.dims = dims;
    this.metric = metric;
    this.executor = config.executor;
  }

  get rowCount(): number {
    return this.rows;
  }

  get indexedRows(): number {
    return this.snapshot.indexedRows;
  }

  append(vectors: Float32Array): number {
    this.assertOpen('append');
    if (vectors.length % this.dims !== 0)
      throw new RangeError(
        `vector column: append got ${vectors.length} floats, not a multiple of dims ${this.dims}`,
      );
    const first = this.rows;
    const total = vectors.length / this.dims;
    let done = 0;
    while (done < total) {
      const seg = this.segmentFor(this.rows);
      const local = this.rows - seg.start;
      const n = Math.min(seg.capacity - local, total - done);
      const rt = this.executor.runtime(seg.id);
      rt.f32.set(
        vectors.subarray(done * this.dims, (done + n) * this.dims),
        (rt.layout.vectors >> 2) + local * this.dims,
      );
      this.rows += n;
      done += n;
    }
    this.prefaultAhead();
    this.quantizeFresh(first, this.rows);
    return first;
  }

  get(row: number): Float32Array {
    this.assertOpen('get');
    if (!Number.isInteger(row) || row < 0 || row >= this.rows)
      throw new RangeError(`vector column: row ${row} outside 0..${this.rows - 1}`);
    const seg = this.segmentOf(row);
    const rt = this.executor.runtime(seg.id);
    const at = (rt.layout.vectors >> 2) + (row - seg.start) * this.dims;
    return rt.f32.slice(at, at + this.dims);
  }

  async scan(
    query: Float32Array,
    range: { from: number; to: number },
    options: SearchOptions,
  ): Promise<SearchResult> {
    this.assertOpen('scan');
    this.checkQuery(query, options);
    const { from, to } = range;
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to > this.rows || from > to)
      throw new RangeError(`vector column: scan range [${from}, ${to}) outside [0, ${this.rows})`);
    const result = await this.exact(query, from, to, options);
    return { hits: result.hits, stats: { exhaustiveRows: result.scored, annRows: 0 } };
  }

  async ann(query: Float32Array, options: SearchOptions): Promise<SearchResult> {
    this.assertOpen('ann');
    this.checkQuery(query, options);
    const snap = this.snapshot;
    const n = snap.indexedRows;
    const none = { hits: [], stats: { exhaustiveRows: 0, annRows: 0 } };
    if (n === 0) return none;
    const { allow, k } = options;
    // Without dead rows in range the bitset is not sent to the workers at all (1M rows = 125 KB per task to copy).
    const dead = options.dead && countRows(options.dead, 0, n) > 0 ? options.dead : undefined;
    const candidates = allow ? countRows(allow, 0, n, dead) : dead ? n - countRows(dead, 0, n) : n;
    if (candidates === 0) return none;
    if (candidates < n && candidates <= Math.max(EXACT_FALLBACK_ROWS, n * EXACT_FALLBACK_SHARE)) {
      // Few candidates: probing would miss them; scoring them exactly is cheap and has recall 1. With deletes only,
      // the live rows become the allow set so the scan gathers them instead of reading every row.
      const gather = allow ?? liveRows(n, dead);
      const result = await this.exact(query, 0, n, { ...options, allow: gather });
      return { hits: result.hits, stats: { exhaustiveRows: 0, annRows: result.scored } };
    }
    const parts: AnnPart[] = rangeParts(this.segments, 0, n).map((p) => {
      const ivf = snap.ivf.get(p.seg);
      return ivf ? { ...p, lists: ivf.lists, nprobe: ivf.nprobe } : { ...p, lists: 0, nprobe: 0 };
    });
    const probeFactor = n / candidates;
    const prepared = prepareQuery(query, this.metric);
    const base = {
      kind: 'ann' as const,
      metric: this.metric,
      query: prepared,
      likeData: likeData(parts, (seg) => this.executor.runtime(seg), this.metric, prepared, 0),
      k,
      rerank: Math.max(RERANK_MIN, RERANK_PER_K * k),
      probeFactor,
      dead,
      allow,
    };
    const filtered = allow !== undefined;
    const cost = (p: AnnPart): number => annPartCost(p, this.metric, this.dims, probeFactor, filtered);
    const totalCost = parts.reduce((s, p) => s + cost(p), 0);
    const local = totalCost * this.dims < LOCAL_WORK;
    // Only contiguous int8 passes are cut at row boundaries: a sketched part cut below the sketch's minimum size
    // would be scanned whole, and IVF lists cannot be cut.
    const splittable = (p: AnnPart) =>
      p.lists === 0 && !sketches(this.metric, this.dims, p.to - p.from, filtered);
    const groups = local ? [parts] : splitByCost(parts, this.executor.pieces, cost, splittable);
    const result = await this.runAll(
      groups.map((g) => ({ ...base, parts: g })),
      local,
      k,
    );
    return { hits: result.hits, stats: { exhaustiveRows: 0, annRows: result.scored } };
  }

  indexTo(to: number): Promise<void> {
    this.assertOpen('indexTo');
    if (!Number.isInteger(to) || to < 0 || to > this.rows)
      throw new RangeError(`vector column: indexTo(${to}) outside 0..${this.rows} (rows appended so far)`);
    const run = this.indexing.then(() => this.extendIndex(to));
    this.indexing = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.indexing;
    for (const s of this.segments) this.executor.dropSegment(s.id);
    this.segments.length = 0;
    await this.executor.release();
  }

  private async extendIndex(to: number): Promise<void> {
    const snap = this.snapshot;
    const from = snap.indexedRows;
    if (to <= from || this.closed) return;
    const jobs: IndexSegmentJob[] = rangeParts(this.segments, from, to).map((p) => {
      const seg = this.segments.find((s) => s.id === p.seg) as Segment;
      return {
        seg: p.seg,
        // Rows below the quantised frontier already have their codes (written by the fresh-row quantiser).
        quantizeFrom: Math.min(p.to, Math.max(p.from, this.quantized - p.rowBase)),
        quantizeTo: p.to,
        buildIvf: p.to === seg.capacity && seg.capacity >= IVF_MIN_ROWS,
        seed: (seg.start * 2654435761 + 12345) >>> 0,
      };
    });
    const result = await this.executor.index({ kind: 'index', metric: this.metric, segments: jobs });
    const ivf = new Map(snap.ivf);
    for (const b of result.built) if (b.lists > 0) ivf.set(b.seg, { lists: b.lists, nprobe: b.nprobe });
    this.snapshot = { indexedRows: to, ivf };
  }

  private async exact(
    query: Float32Array,
    from: number,
    to: number,
    options: SearchOptions,
  ): Promise<TaskResult> {
    const parts = rangeParts(this.segments, from, to);
    const local = (to - from) * this.dims < LOCAL_WORK;
    const groups = local
      ? [parts]
      : splitByCost(
          parts,
          this.executor.pieces,
          (p) => p.to - p.from,
          () => true,
        );
    const base = {
      kind: 'exact' as const,
      metric: this.metric,
      query: prepareQuery(query, this.metric),
      k: options.k,
      dead: options.dead && countRows(options.dead, from, to) > 0 ? options.dead : undefined,
      allow: options.allow,
      quantized: this.quantized,
    };
    return this.runAll(
      groups.map((g) => ({ ...base, parts: g })),
      local,
      options.k,
    );
  }

  /**
   * The k best of all the tasks' hits, and the rows they scored. Small searches run right here; the rest go to the
   * executor's threads.
   */
  private async runAll(tasks: SearchTask[], local: boolean, k: number): Promise<TaskResult> {
    const results = local ? tasks.map((t) => this.executor.runHere(t)) : await this.executor.run(tasks);
    return {
      hits: mergeHits(
        results.map((r) => r.hits),
        k,
      ),
      scored: results.reduce((s, r) => s + r.scored, 0),
    };
  }

  /**
   * Quantises appended rows [from, to) off the request thread. The executor finishes jobs in order, so the frontier
   * only moves once every row below it is written.
   */
  private quantizeFresh(from: number, to: number): void {
    for (const p of rangeParts(this.segments, from, to)) {
      const end = p.rowBase + p.to;
      this.executor
        .quantize({ kind: 'quantize', metric: this.metric, seg: p.seg, from: p.from, to: p.to })
        .then(
          () => {
            if (!this.quantizeFailed) this.quantized = Math.max(this.quantized, end);
          },
          () => {
            // Rows past a failed job may lack codes: stop the frontier there; they stay with the f32 scan.
            this.quantizeFailed = true;
          },
        );
    }
  }

  /** The segment that holds `row`, allocating segments up to it (the last one may still be empty). */
  private segmentFor(row: number): Segment {
    for (;;) {
      const last = this.segments[this.segments.length - 1];
      const end = last ? last.start + last.capacity : 0;
      if (row < end) return this.segmentOf(row);
      const capacity = segmentCapacity(this.segments.length, this.dims);
      const layout = segmentLayout(this.dims, capacity, this.executor.slots);
      const id = this.executor.addSegment(allocateSegmentMemory(layout), layout);
      this.segments.push({ id, start: end, capacity });
    }
  }

  /**
   * Keeps the pages of the next rows (see PREFAULT_AHEAD_BYTES) committed by a background thread: first touch of
   * fresh memory is slow (docs/engine-measurements.md §0), which appends (on the request thread) would otherwise pay.
   */
  private prefaultAhead(): void {
    const rowBytes = this.dims * 4;
    // Ahead by as much as is stored (capped), so a small column never commits much more than it holds.
    const aheadBytes = Math.min(PREFAULT_AHEAD_BYTES, Math.max(PREFAULT_MIN_BYTES, this.rows * rowBytes));
    const ahead = Math.max(1, Math.floor(aheadBytes / rowBytes));
    this.prefaulted = Math.max(this.prefaulted, this.rows);
    if (this.prefaulted - this.rows >= ahead / 2) return;
    const want = this.rows + ahead;
    while (this.prefaulted < want) {
      const seg = this.segmentFor(this.prefaulted);
      const end = Math.min(seg.start + seg.capacity, want);
      const { vectors } = this.executor.runtime(seg.id).layout;
      this.executor.prefault(
        seg.id,
        vectors + (this.prefaulted - seg.start) * rowBytes,
        vectors + (end - seg.start) * rowBytes,
      );
      this.prefaulted = end;
    }
  }

  private segmentOf(row: number): Segment {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.segments[mid].start <= row) lo = mid;
      else hi = mid - 1;
    }
    return this.segments[lo];
  }

  private checkQuery(query: Float32Array, options: SearchOptions): void {
    if (query.length !== this.dims)
      throw new RangeError(`vector column: query has ${query.length} dims, the column has ${this.dims}`);
    if (!Number.isInteger(options.k) || options.k < 1)
      throw new RangeError(`vector column: k must be a positive integer, got ${options.k}`);
  }

  private assertOpen(op: string): void {
    if (this.closed) throw new Error(`vector column: ${op} after close()`);
  }
}
