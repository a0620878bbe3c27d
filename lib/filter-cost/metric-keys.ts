// Experiment 2's metric names beyond the shared ones (lib/metric-names.ts) and the sub-metric keys of one cell,
// shared by the thresholds (which make k6 put the sub-metrics into the summary) and the result renderers. Pure.
import { queryKeys, subMetric } from '../metric-names';
import type { QueryCell } from './cells';

export const FILTER_COST_METRIC = {
  /** Trend: `billing.billable_logical_bytes_queried` of each successful query. */
  billableQueried: 'query_billable_bytes',
  /** Trend: rows in each successful answer (checked against the filter's exact match count). */
  returnedRows: 'query_returned_rows',
} as const;

/** The `shape` tag of unmeasured queries: the JIT warm-up scenario and each cell's warm-up seconds. */
export const WARMUP_SHAPE = 'warmup';

export function cellTags(cell: Pick<QueryCell, 'shape' | 'selectivity'>): {
  shape: string;
  selectivity: string;
} {
  return { shape: cell.shape, selectivity: cell.selectivity };
}

/** Summary keys of one cell's measured queries. */
export function cellKeys(cell: Pick<QueryCell, 'id' | 'shape' | 'selectivity'>) {
  const sel = cellTags(cell);
  return {
    ...queryKeys(sel),
    billableQueried: subMetric(FILTER_COST_METRIC.billableQueried, sel),
    returnedRows: subMetric(FILTER_COST_METRIC.returnedRows, sel),
    dropped: subMetric('dropped_iterations', { scenario: cell.id }),
  };
}
