// handleSummary data -> one row per query cell of experiment 2 (latency, errors, server figures, billing, returned
// rows) joined with the recall setup() measured. Pure: reads only the keys of lib/filter-cost/metric-keys.ts.
import type { QueryCell } from '../filter-cost/cells';
import { cellKeys, ERROR_CLASSES } from '../filter-cost/metric-keys';
import type { RecallStats } from '../filter-cost/setup-data';
import type { LeafFilter } from '../selectivity';
import type { SummaryData } from './cells';

type Ms = number | null;

export interface FilterCostCell {
  id: string;
  shape: QueryCell['shape'];
  /** Percentage of rows the filter matches (the `selectivity` tag). */
  selectivity_pct: string;
  matches: number;
  filter: LeafFilter | null;
  expected_rows: number;
  requests: number;
  /** Requests over the nominal measured window (QUERY_DURATION_S). */
  qps: number;
  errors: number;
  error_rate: number;
  errors_by_status: Record<string, number>;
  /** http_req_duration of the successful queries. */
  client_ms: { p50: Ms; p95: Ms; p99: Ms };
  server_ms: { p50: Ms; p95: Ms; p99: Ms };
  query_execution_ms: { p50: Ms; p95: Ms };
  /** From each query's intended start on the arrival schedule (failed queries included). */
  from_intended_ms: { p50: Ms; p99: Ms };
  exhaustive_search_count: { p50: number | null; max: number | null };
  /** billing.billable_logical_bytes_queried per query (median). */
  billable_bytes_queried: number | null;
  returned_rows: { min: number | null; max: number | null };
  /** recall@TOP_K against exact kNN with the same filter (null for filter_ordered or without probes). */
  recall: RecallStats | null;
}

export function buildFilterCostCells(
  data: SummaryData,
  cells: readonly QueryCell[],
  recall: Record<string, RecallStats>,
  measuredS: number,
): FilterCostCell[] {
  return cells.map((cell) => {
    const k = cellKeys(cell);
    const value = (key: string, stat: string): number | null => {
      const v = data.metrics[key]?.values[stat];
      return v === undefined || Number.isNaN(v) ? null : v;
    };
    const requests = value(k.requests, 'count') ?? 0;
    const errors = value(k.failed, 'passes') ?? 0;
    const ok = requests - errors > 0;
    const trend = (key: string, stat: string): Ms => (ok ? value(key, stat) : null);
    const errorsByStatus: Record<string, number> = {};
    for (const cls of ERROR_CLASSES) {
      const n = value(k.errors(cls), 'count') ?? 0;
      if (n > 0) errorsByStatus[cls] = n;
    }
    return {
      id: cell.id,
      shape: cell.shape,
      selectivity_pct: cell.selectivity,
      matches: cell.matches,
      filter: cell.filter ?? null,
      expected_rows: cell.expectedRows,
      requests,
      qps: requests / measuredS,
      errors,
      error_rate: requests > 0 ? errors / requests : 0,
      errors_by_status: errorsByStatus,
      client_ms: {
        p50: trend(k.clientOk, 'med'),
        p95: trend(k.clientOk, 'p(95)'),
        p99: trend(k.clientOk, 'p(99)'),
      },
      server_ms: {
        p50: trend(k.server, 'med'),
        p95: trend(k.server, 'p(95)'),
        p99: trend(k.server, 'p(99)'),
      },
      query_execution_ms: { p50: trend(k.execution, 'med'), p95: trend(k.execution, 'p(95)') },
      from_intended_ms: {
        p50: requests > 0 ? value(k.fromIntended, 'med') : null,
        p99: requests > 0 ? value(k.fromIntended, 'p(99)') : null,
      },
      exhaustive_search_count: { p50: trend(k.exhaustive, 'med'), max: trend(k.exhaustive, 'max') },
      billable_bytes_queried: trend(k.billableQueried, 'med'),
      returned_rows: { min: trend(k.returnedRows, 'min'), max: trend(k.returnedRows, 'max') },
      recall: recall[cell.id] ?? null,
    };
  });
}
