// handleSummary data -> one row per query cell of experiment 2 (latency, errors, server figures, billing, returned
// rows) joined with the recall setup() measured. Pure: reads only the keys of lib/filter-cost/metric-keys.ts.

import { type Ms, type QueryFigures, readQueryCell } from '../../results/query-cell-figures';
import type { SummaryData } from '../../results/summary-data';
import type { QueryCell } from '../cells';
import { cellKeys } from '../metric-keys';
import type { LeafFilter } from '../selectivity';
import type { RecallStats } from '../setup-data';

export interface FilterCostCell extends QueryFigures {
  id: string;
  shape: QueryCell['shape'];
  /** Percentage of rows the filter matches (the `selectivity` tag). */
  selectivity_pct: string;
  matches: number;
  filter: LeafFilter | null;
  expected_rows: number;
  /** Requests over the nominal measured window (QUERY_DURATION_S). */
  qps: number;
  server_ms: { p50: Ms; p95: Ms; p99: Ms };
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
    const q = readQueryCell(data, k);
    return {
      id: cell.id,
      shape: cell.shape,
      selectivity_pct: cell.selectivity,
      matches: cell.matches,
      filter: cell.filter ?? null,
      expected_rows: cell.expectedRows,
      requests: q.requests,
      qps: q.requests / measuredS,
      errors: q.errors,
      error_rate: q.error_rate,
      errors_by_status: q.errors_by_status,
      client_ms: q.client_ms,
      server_ms: {
        p50: q.trend(k.server, 'med'),
        p95: q.trend(k.server, 'p(95)'),
        p99: q.trend(k.server, 'p(99)'),
      },
      query_execution_ms: q.query_execution_ms,
      from_intended_ms: q.from_intended_ms,
      exhaustive_search_count: q.exhaustive_search_count,
      billable_bytes_queried: q.trend(k.billableQueried, 'med'),
      returned_rows: { min: q.trend(k.returnedRows, 'min'), max: q.trend(k.returnedRows, 'max') },
      recall: recall[cell.id] ?? null,
    };
  });
}
