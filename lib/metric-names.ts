// The custom metric names both experiments record for their queries, the sub-metric key syntax and the summary keys
// of a query cell, shared by the scripts (which record and declare thresholds) and the result builders (which read
// the keys back). Each experiment adds its own names in its folder (lib/backlog/metric-keys.ts,
// lib/filter-cost/metric-keys.ts). Pure.

/** Custom query metrics (k6 names: letters, digits, underscores). */
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

/** k6 thresholds: metric or sub-metric key -> expressions. */
export type Thresholds = Record<string, string[]>;

/** `metric{k:v,...}` in the given key order: the key k6 uses for a sub-metric in thresholds and summary data. */
export function subMetric(metric: string, tags: Record<string, string>): string {
  const parts = Object.entries(tags).map(([k, v]) => `${k}:${v}`);
  return parts.length === 0 ? metric : `${metric}{${parts.join(',')}}`;
}

/**
 * The summary keys of the query figures every experiment's cell has, for the tags that select the cell's queries
 * (`phase` and `consistency`, or `config`, `shape`, `selectivity` and `consistency`).
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

/**
 * A cell's query trends: k6 puts a trend's sub-metric into the summary data only when a threshold names it. Latency
 * from the intended start exists only on an arrival schedule.
 */
export function queryTrendKeys(k: QueryKeys, mode: 'arrival' | 'workers'): string[] {
  const keys = [k.clientOk, k.server, k.execution, k.exhaustive];
  return mode === 'arrival' ? [...keys, k.fromIntended] : keys;
}
