// Custom metric names, the sub-metric key syntax and the summary keys of a query cell, shared by both experiments'
// scripts (which record and declare thresholds) and result builders (which read the keys back); also experiment 1's
// per-cell keys (its writer's gauges). Pure.
import type { Consistency, PhaseName } from './phases';

/** Custom metrics (k6 names: letters, digits, underscores). */
export const METRIC = {
  /** Trend (time): `performance.server_total_ms` of each successful query. */
  serverTotal: 'server_total_ms',
  /** Trend (time): `performance.query_execution_ms`. */
  queryExecution: 'query_execution_ms',
  /** Trend: `performance.exhaustive_search_count`, unindexed rows the query scanned. */
  exhaustiveSearch: 'exhaustive_search_count',
  /**
   * Trend (time): response time measured from the query's intended start on the arrival schedule
   * (scenario start + iterationInTest / rate), so a late start (coordinated omission) shows up as latency.
   */
  fromIntended: 'query_from_intended_ms',
  /** Counter: failed queries, tagged with `status` and `error_class`. */
  queryErrors: 'query_errors',
  /** Gauges written by the writer at each cell's window edges (`edge` tag: start or end). */
  snapshotUnindexed: 'snapshot_unindexed_bytes',
  snapshotRows: 'snapshot_approx_row_count',
  snapshotTime: 'snapshot_time_ms',
  /** Gauges: a cell's nominal measured window, epoch ms. */
  windowStart: 'window_start_ms',
  windowEnd: 'window_end_ms',
  /** Gauge: every backlog reading the writer takes (a time series in `--out json`). */
  backlog: 'backlog_unindexed_bytes',
  /** Counter: rows the writers got acknowledged, tagged with `phase`. */
  rowsWritten: 'rows_written',
  /** Counter: failed writes, tagged with `status`. */
  writeErrors: 'write_errors',
} as const;

/** Error classes of `query_errors` (the `error_class` tag): 0 = no response (network error or timeout). */
export const ERROR_CLASSES = ['429', '4xx', '5xx', '0'] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

export function errorClass(status: number): ErrorClass {
  if (status === 429) return '429';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  return '0';
}

export type Edge = 'start' | 'end';

/** `metric{k:v,...}` in the given key order: the key k6 uses for a sub-metric in thresholds and summary data. */
export function subMetric(metric: string, tags: Record<string, string>): string {
  const parts = Object.entries(tags).map(([k, v]) => `${k}:${v}`);
  return parts.length === 0 ? metric : `${metric}{${parts.join(',')}}`;
}

/**
 * The summary keys of the query figures every experiment's cell has, for the tags that select the cell's queries
 * (`phase` and `consistency`, or `shape` and `selectivity`).
 */
export function queryKeys(sel: Record<string, string>) {
  return {
    requests: subMetric('http_reqs', sel),
    failed: subMetric('http_req_failed', sel),
    clientOk: subMetric('http_req_duration', { ...sel, expected_response: 'true' }),
    server: subMetric(METRIC.serverTotal, sel),
    execution: subMetric(METRIC.queryExecution, sel),
    exhaustive: subMetric(METRIC.exhaustiveSearch, sel),
    fromIntended: subMetric(METRIC.fromIntended, sel),
    errors: (cls: ErrorClass) => subMetric(METRIC.queryErrors, { ...sel, error_class: cls }),
  };
}

export type QueryKeys = ReturnType<typeof queryKeys>;

/** A cell's query trends: k6 puts a trend's sub-metric into the summary data only when a threshold names it. */
export function queryTrendKeys(k: QueryKeys): string[] {
  return [k.clientOk, k.server, k.execution, k.exhaustive, k.fromIntended];
}

export function cellTags(phase: PhaseName, consistency: Consistency): { phase: string; consistency: string } {
  return { phase, consistency };
}

/** The summary keys of one cell, in one place so thresholds and renderers can never disagree. */
export function cellKeys(phase: PhaseName, consistency: Consistency) {
  const sel = cellTags(phase, consistency);
  const edge = (metric: string, e: Edge) => subMetric(metric, { ...sel, edge: e });
  return {
    ...queryKeys(sel),
    unindexed: (e: Edge) => edge(METRIC.snapshotUnindexed, e),
    rows: (e: Edge) => edge(METRIC.snapshotRows, e),
    time: (e: Edge) => edge(METRIC.snapshotTime, e),
    windowStart: subMetric(METRIC.windowStart, sel),
    windowEnd: subMetric(METRIC.windowEnd, sel),
  };
}
