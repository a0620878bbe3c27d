// Experiment 2's metric names beyond the shared query ones (lib/metric-names.ts) and the summary keys of one cell at
// one consistency, shared by the thresholds (which make k6 put the sub-metrics into the summary) and the result
// builders. Pure.
import { queryKeys, subMetric } from '../metric-names';
import type { Consistency } from '../turbopuffer-wire';
import type { QueryCell } from './cells';

export const FILTER_COST_METRIC = {
  /** Trend: rows in each successful answer (checked against min(TOP_K, matches)). */
  returnedRows: 'query_returned_rows',
  /** Gauge, from setup(): rows a filter matched (aggregate Count) over the rows its design expects. */
  selectivityRatio: 'filter_selectivity_ratio',
  /** Counter, from setup(): write attempts answered 429 and sent again. */
  writeRetries429: 'write_retries_429',
  /** Counter, from setup(): write attempts that failed otherwise (5xx, no response), retried or not. */
  writeErrors: 'write_errors',
} as const;

/** The `shape` tag of unmeasured queries: the JIT warm-up and each window's warm-up seconds. */
export const WARMUP_SHAPE = 'warmup';

/** The tags that select one window's measured queries. */
export function cellTags(cell: QueryCell, consistency: Consistency): Record<string, string> {
  return { config: cell.configuration, shape: cell.shape, selectivity: cell.selectivityTag, consistency };
}

/** k6 scenario names allow letters, digits, `_` and `-`: `int-10k_ann_filtered_0p1_strong`. */
export function windowScenario(cell: QueryCell, consistency: Consistency): string {
  return `${cell.configuration}_${cell.shape}_${cell.selectivityTag.replace('.', 'p')}_${consistency}`;
}

/** Summary keys of one window (a cell at one consistency). */
export function cellKeys(cell: QueryCell, consistency: Consistency) {
  const sel = cellTags(cell, consistency);
  return {
    ...queryKeys(sel),
    returnedRows: subMetric(FILTER_COST_METRIC.returnedRows, sel),
    dropped: subMetric('dropped_iterations', { scenario: windowScenario(cell, consistency) }),
  };
}

/** The key of a filter's selectivity check (one per configuration and share: both shapes use the filter). */
export function selectivityKey(cell: Pick<QueryCell, 'configuration' | 'selectivityTag'>): string {
  return subMetric(FILTER_COST_METRIC.selectivityRatio, {
    config: cell.configuration,
    selectivity: cell.selectivityTag,
  });
}
