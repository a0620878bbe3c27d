// Experiment 1's metric names beyond the shared query ones (lib/metric-names.ts): the writer's gauges and counters,
// and the summary keys of one phase x consistency cell, in one place so thresholds and renderers never disagree. Pure.
import { queryKeys, subMetric } from '../metric-names';
import type { Consistency } from '../turbopuffer-wire';
import type { PhaseName } from './phases';

export const BACKLOG_METRIC = {
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
  /** Trend: recall@TOP_K of the recall scenario's ANN queries against exact kNN, tagged `phase` and `consistency`. */
  recall: 'recall_at_k',
} as const;

export type Edge = 'start' | 'end';

function cellTags(phase: PhaseName, consistency: Consistency): { phase: string; consistency: string } {
  return { phase, consistency };
}

/** The summary keys of one cell. */
export function cellKeys(phase: PhaseName, consistency: Consistency) {
  const sel = cellTags(phase, consistency);
  const edge = (metric: string, e: Edge) => subMetric(metric, { ...sel, edge: e });
  return {
    ...queryKeys(sel),
    unindexed: (e: Edge) => edge(BACKLOG_METRIC.snapshotUnindexed, e),
    rows: (e: Edge) => edge(BACKLOG_METRIC.snapshotRows, e),
    time: (e: Edge) => edge(BACKLOG_METRIC.snapshotTime, e),
    windowStart: subMetric(BACKLOG_METRIC.windowStart, sel),
    windowEnd: subMetric(BACKLOG_METRIC.windowEnd, sel),
    recall: subMetric(BACKLOG_METRIC.recall, sel),
  };
}
