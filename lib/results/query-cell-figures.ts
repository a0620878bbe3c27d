// The figures every experiment's query cell reports, read the same way for both from handleSummary data through the
// cell's summary keys: requests, failures by error class and the latency trends of the successful queries. Pure.
import { ERROR_CLASSES, type QueryKeys } from '../metric-names';
import { metricValue, type SummaryData } from './summary-data';

/** Milliseconds; null where the cell had no sample. */
export type Ms = number | null;

/** The fields both experiments' result cells share (the JSON key order is each builder's). */
export interface QueryFigures {
  requests: number;
  errors: number;
  error_rate: number;
  /** Failed queries by status: "429", "4xx" (other client errors), "5xx", "0" (no response). Zero counts omitted. */
  errors_by_status: Record<string, number>;
  /** Client-side duration (k6 http_req_duration) of the successful queries. */
  client_ms: { p50: Ms; p95: Ms; p99: Ms };
  query_execution_ms: { p50: Ms; p95: Ms };
  /** performance.exhaustive_search_count: unindexed rows scanned per query. */
  exhaustive_search_count: { p50: number | null; max: number | null };
  /** Latency from each query's intended start on the arrival schedule (all queries, failed ones included). */
  from_intended_ms: { p50: Ms; p99: Ms };
}

export interface QueryCellFigures extends QueryFigures {
  /** One statistic of a trend over the successful queries; null when none succeeded (or it has no samples). */
  trend: (key: string, stat: string) => Ms;
}

export function readQueryCell(data: SummaryData, k: QueryKeys): QueryCellFigures {
  const value = (key: string, stat: string) => metricValue(data, key, stat);
  const requests = value(k.requests, 'count') ?? 0;
  const errors = value(k.failed, 'passes') ?? 0;
  // An empty trend can read 0 in the summary data: without a successful query the latency is unknown, not zero.
  const ok = requests - errors > 0;
  const trend = (key: string, stat: string): Ms => (ok ? value(key, stat) : null);
  const errorsByStatus: Record<string, number> = {};
  for (const cls of ERROR_CLASSES) {
    const n = value(k.errors(cls), 'count') ?? 0;
    if (n > 0) errorsByStatus[cls] = n;
  }
  return {
    requests,
    errors,
    error_rate: requests > 0 ? errors / requests : 0,
    errors_by_status: errorsByStatus,
    client_ms: {
      p50: trend(k.clientOk, 'med'),
      p95: trend(k.clientOk, 'p(95)'),
      p99: trend(k.clientOk, 'p(99)'),
    },
    query_execution_ms: { p50: trend(k.execution, 'med'), p95: trend(k.execution, 'p(95)') },
    exhaustive_search_count: { p50: trend(k.exhaustive, 'med'), max: trend(k.exhaustive, 'max') },
    from_intended_ms: {
      p50: requests > 0 ? value(k.fromIntended, 'med') : null,
      p99: requests > 0 ? value(k.fromIntended, 'p(99)') : null,
    },
    trend,
  };
}
