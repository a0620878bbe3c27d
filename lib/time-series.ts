// The compact time series both experiments keep in their result JSON: queries per consistency and the metadata polls,
// in fixed buckets on one clock. handleSummary sees only aggregates, so every sample that feeds the series carries a
// `ts` tag (its bucket's start, whole seconds from the series origin) and the script declares an always-true
// threshold on each bucket's sub-metrics: that is how k6 (and bench's runner, the same way) puts one aggregate per
// bucket into the summary data. Every bucket's tag is known in init code, because the scripts bound their duration.
// Pure: the scripts add the tags and thresholds, the result builders read the buckets back.
import { ERROR_CLASSES, queryKeys, subMetric, type Thresholds } from './metric-names';
import { metricValue, type SummaryData } from './results/summary-data';

/** The tag that names a sample's bucket. */
export const SERIES_TAG = 'ts';

/** Bucket widths tried, narrowest first: the series keeps at most MAX_BUCKETS buckets. */
const INTERVALS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300];
/** Bounds the sub-metrics (about 8 per bucket and consistency) and so the summary data handleSummary receives. */
export const MAX_BUCKETS = 300;

/** Custom metrics of the series (k6 names), beyond the query metrics every sample already feeds. */
export const SERIES_METRIC = {
  /** Gauge: epoch ms of the newest metadata poll in the bucket (0 or absent: no poll there). */
  pollTime: 'series_poll_time_ms',
  /** Gauges: that poll's `index.unindexed_bytes` (0 when up to date), `approx_row_count`, `index.unindexed_rows`. */
  unindexedBytes: 'series_unindexed_bytes',
  rowCount: 'series_approx_row_count',
  unindexedRows: 'series_unindexed_rows',
  /** Gauge: the series origin (epoch ms) as the VUs computed it. */
  origin: 'series_origin_ms',
} as const;

export interface SeriesClock {
  /** Epoch ms of t = 0. */
  originMs: number;
  intervalS: number;
  /** Buckets from t = 0 that the run can reach. */
  buckets: number;
}

/** The narrowest bucket width that covers `boundMs` in at most MAX_BUCKETS buckets. */
export function seriesIntervalS(boundMs: number): number {
  for (const s of INTERVALS_S) if (Math.ceil(boundMs / (s * 1000)) <= MAX_BUCKETS) return s;
  return INTERVALS_S[INTERVALS_S.length - 1];
}

/** A clock of `boundMs` from `originMs`. */
export function seriesClock(originMs: number, boundMs: number): SeriesClock {
  const intervalS = seriesIntervalS(boundMs);
  return { originMs, intervalS, buckets: Math.max(1, Math.ceil(boundMs / (intervalS * 1000))) };
}

/** The tag of samples outside the clock (before t = 0, after the last bucket): no bucket counts them. */
const OUTSIDE_BUCKETS = 'outside';

/** The `ts` tag of a sample taken at `timeMs`: its bucket's start in whole seconds from the origin. */
export function bucketTag(c: SeriesClock, timeMs: number): string {
  const i = Math.floor((timeMs - c.originMs) / (c.intervalS * 1000));
  return i < 0 || i >= c.buckets ? OUTSIDE_BUCKETS : String(i * c.intervalS);
}

/** Every bucket's tag value, in order. */
export function bucketTags(c: Pick<SeriesClock, 'intervalS' | 'buckets'>): string[] {
  return Array.from({ length: c.buckets }, (_, i) => String(i * c.intervalS));
}

/** The series keys of one bucket's queries at one consistency (the query cell keys, selected by ts). */
export function querySeriesKeys(ts: string, consistency: string) {
  return queryKeys({ [SERIES_TAG]: ts, consistency });
}

export function metadataSeriesKeys(ts: string) {
  const sel = { [SERIES_TAG]: ts };
  return {
    time: subMetric(SERIES_METRIC.pollTime, sel),
    unindexedBytes: subMetric(SERIES_METRIC.unindexedBytes, sel),
    rowCount: subMetric(SERIES_METRIC.rowCount, sel),
    unindexedRows: subMetric(SERIES_METRIC.unindexedRows, sel),
  };
}

/** Always-true thresholds on every bucket's query sub-metrics, for the (bucket, consistency) pairs given. */
export function querySeriesThresholds(pairs: Iterable<[ts: string, consistency: string]>): Thresholds {
  const t: Thresholds = {};
  for (const [ts, consistency] of pairs) {
    const k = querySeriesKeys(ts, consistency);
    t[k.requests] = ['count>=0'];
    t[k.clientOk] = ['max>=0'];
    t[k.server] = ['max>=0'];
    for (const cls of ERROR_CLASSES) t[k.errors(cls)] = ['count>=0'];
  }
  return t;
}

/** Always-true thresholds on every bucket's metadata gauges. */
export function metadataSeriesThresholds(tags: Iterable<string>): Thresholds {
  const t: Thresholds = {};
  for (const ts of tags) for (const key of Object.values(metadataSeriesKeys(ts))) t[key] = ['value>=0'];
  return t;
}

/** Every (bucket, consistency) pair of a clock. */
export function allPairs(c: SeriesClock, consistencies: readonly string[]): [string, string][] {
  return bucketTags(c).flatMap((ts) => consistencies.map((x): [string, string] => [ts, x]));
}

// --- the result JSON's shape -------------------------------------------------------------------------------------

/** One consistency's queries, columns over the buckets that had any (t_s: bucket start, s from the origin). */
export interface QuerySeries {
  t_s: number[];
  requests: number[];
  /** Failed queries by status class ("429", "4xx", "5xx", "0"), only classes that occurred. */
  errors_by_status: Record<string, number[]>;
  /** Client http_req_duration of the successful queries; null where none succeeded. */
  client_ms: { p50: (number | null)[]; p95: (number | null)[]; p99: (number | null)[] };
  /** performance.server_total_ms of the successful queries. */
  server_ms: { p50: (number | null)[] };
}

/** Metadata polls, one per bucket at most (the bucket's newest), at the poll's own time. */
export interface MetadataSeries {
  t_s: number[];
  unindexed_bytes: number[];
  /** Rows written: approx_row_count + index.unindexed_rows (null when the poll had no unindexed_rows). */
  rows: (number | null)[];
  /** Rows indexed: approx_row_count, which only the indexer moves. */
  rows_indexed: (number | null)[];
}

export interface TimeSeriesWindow {
  /** What the window is: a cell (`idle/strong`, `int-10k/ann_filtered/1/eventual`) or a phase. */
  label: string;
  kind: 'cell' | 'phase' | 'warmup';
  start_s: number;
  end_s: number;
}

export interface TimeSeries {
  /** ISO 8601 time of t = 0. */
  origin: string;
  /** Bucket width; a query counts in the bucket of its start. */
  interval_s: number;
  /** What t = 0 is, in words. */
  origin_is: string;
  /** By consistency. */
  queries: Record<string, QuerySeries>;
  /** By namespace (experiment 1) or configuration (experiment 2). */
  metadata: Record<string, MetadataSeries>;
  /** Rows the writers got acknowledged, per bucket (experiment 1's writers; experiment 2 ingests in setup). */
  writes?: { t_s: number[]; rows: number[] };
  windows: TimeSeriesWindow[];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Rows written and rows indexed from one metadata poll. approx_row_count is computed by indexing (it moves when the
 * indexer passes a write: docs/turbopuffer-api.md §4, emulator/README.md), so it counts the rows indexed, and the
 * rows written are those plus index.unindexed_rows; null where the poll lacks either (a negative unindexed_rows is
 * the series gauge's "not reported").
 */
export function pollRowCounts(
  approxRowCount: number | null | undefined,
  unindexedRows: number | null | undefined,
): { rows: number | null; rowsIndexed: number | null } {
  const indexed = approxRowCount ?? null;
  const unindexed = unindexedRows == null || unindexedRows < 0 ? null : unindexedRows;
  return { rows: indexed === null || unindexed === null ? null : indexed + unindexed, rowsIndexed: indexed };
}

/** Seconds from the origin, to the millisecond. */
export function secondsFrom(originMs: number, timeMs: number): number {
  return round3((timeMs - originMs) / 1000);
}

/** The query columns of one consistency from summary data: buckets without a request are left out. */
export function readQuerySeries(
  data: SummaryData,
  c: Pick<SeriesClock, 'intervalS' | 'buckets'>,
  consistency: string,
): QuerySeries {
  const out: QuerySeries = {
    t_s: [],
    requests: [],
    errors_by_status: {},
    client_ms: { p50: [], p95: [], p99: [] },
    server_ms: { p50: [] },
  };
  const byClass: Record<string, number[]> = {};
  for (const cls of ERROR_CLASSES) byClass[cls] = [];
  for (const ts of bucketTags(c)) {
    const k = querySeriesKeys(ts, consistency);
    const requests = metricValue(data, k.requests, 'count') ?? 0;
    if (requests === 0) continue;
    let errors = 0;
    for (const cls of ERROR_CLASSES) {
      const n = metricValue(data, k.errors(cls), 'count') ?? 0;
      byClass[cls].push(n);
      errors += n;
    }
    // Without a success the latency is unknown, not the 0 an empty trend reads.
    const ok = requests - errors > 0;
    const trend = (key: string, stat: string) => (ok ? metricValue(data, key, stat) : null);
    out.t_s.push(Number(ts));
    out.requests.push(requests);
    out.client_ms.p50.push(trend(k.clientOk, 'med'));
    out.client_ms.p95.push(trend(k.clientOk, 'p(95)'));
    out.client_ms.p99.push(trend(k.clientOk, 'p(99)'));
    out.server_ms.p50.push(trend(k.server, 'med'));
  }
  for (const cls of ERROR_CLASSES)
    if (byClass[cls].some((n) => n > 0)) out.errors_by_status[cls] = byClass[cls];
  return out;
}

/** The metadata columns from summary data (the buckets' gauges), in time order. */
export function readMetadataSeries(
  data: SummaryData,
  c: Pick<SeriesClock, 'originMs' | 'intervalS' | 'buckets'>,
): MetadataSeries {
  const out: MetadataSeries = { t_s: [], unindexed_bytes: [], rows: [], rows_indexed: [] };
  for (const ts of bucketTags(c)) {
    const k = metadataSeriesKeys(ts);
    const time = metricValue(data, k.time, 'value') ?? 0;
    if (time <= 0) continue;
    // The unindexed-rows gauge reads -1 where the poll had none (the real service may omit it).
    const counts = pollRowCounts(
      metricValue(data, k.rowCount, 'value'),
      metricValue(data, k.unindexedRows, 'value'),
    );
    out.t_s.push(secondsFrom(c.originMs, time));
    out.unindexed_bytes.push(metricValue(data, k.unindexedBytes, 'value') ?? 0);
    out.rows.push(counts.rows);
    out.rows_indexed.push(counts.rowsIndexed);
  }
  return out;
}
