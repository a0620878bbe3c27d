// Experiment 3's metric names and the summary keys that select a band's figures, in one place so the thresholds,
// the recorders and the result builder never disagree. Pure.
import { queryKeys, subMetric } from '../metric-names';
import type { BandName } from './bands';
import type { ReadKind } from './probe';

export const FRESHNESS_METRIC = {
  /** Counter: probes written, tagged with `band`. */
  probes: 'probes_written',
  /** Counter: each probe's first read of each kind, tagged `band`, `read` and `result` (seen, missing, refused, error). */
  firstRead: 'probe_first_read',
  /** Trend (time): ack to the first read that saw the probe, tagged `band` and `read`. */
  lag: 'probe_lag_ms',
  /** Counter: probes a read kind never saw within PROBE_TIMEOUT_S (refused throughout included), `band`, `read`. */
  neverSeen: 'probe_never_seen',
  /** Counter: reads by id that found part of a probe (a write is atomic: never expected). */
  partial: 'probe_partial_reads',
  /** Trend: an eventual read's lag outside the window indexing progress predicts (ms; 0 inside), `band`, `read`. */
  lagError: 'probe_lag_error_ms',
  /** Trend: share of a probe's rows its first ANN read returned, `band` and `consistency`. */
  recentRecall: 'probe_first_recall',
  /** Trend: recall@k of the sampled ANN queries against the exact kNN answer, `band` and `consistency`. */
  recall: 'recall_at_k',
  /** Trend (time): write acknowledgement latency, tagged `band` and `writer` (bulk or probe). */
  writeAck: 'write_ack_ms',
  /** Counter: failed writes, tagged `writer` and `status`. */
  writeErrors: 'write_errors',
  /** Counter: rows the bulk writers got acknowledged. */
  rowsWritten: 'rows_written',
  /** Gauges at each band's window edges (`edge`: start or end), as experiment 1 records its cells'. */
  snapshotUnindexed: 'snapshot_unindexed_bytes',
  snapshotTime: 'snapshot_time_ms',
  windowStart: 'window_start_ms',
  windowEnd: 'window_end_ms',
  /** Per series bucket of the probe's ack: the backlog then (gauge) and each read kind's lag (trend). */
  pointBacklog: 'probe_point_backlog_bytes',
  pointLag: 'probe_point_lag_ms',
} as const;

export const WRITERS = ['bulk', 'probe'] as const;
export type Writer = (typeof WRITERS)[number];
export const RESULTS = ['seen', 'missing', 'refused', 'error'] as const;

/** The sampled queries' tags: the band, the consistency, and `query: ann` (the exact kNN truth is `knn`). */
export function sampleTags(band: string, consistency: string, query: 'ann' | 'knn') {
  return { band, consistency, query };
}

export function bandKeys(band: BandName) {
  const sel = { band };
  return {
    probes: subMetric(FRESHNESS_METRIC.probes, sel),
    firstRead: (read: ReadKind, result: string) =>
      subMetric(FRESHNESS_METRIC.firstRead, { ...sel, read, result }),
    lag: (read: ReadKind) => subMetric(FRESHNESS_METRIC.lag, { ...sel, read }),
    neverSeen: (read: ReadKind) => subMetric(FRESHNESS_METRIC.neverSeen, { ...sel, read }),
    partial: (read: ReadKind) => subMetric(FRESHNESS_METRIC.partial, { ...sel, read }),
    lagError: (read: ReadKind) => subMetric(FRESHNESS_METRIC.lagError, { ...sel, read }),
    recentRecall: (consistency: string) => subMetric(FRESHNESS_METRIC.recentRecall, { ...sel, consistency }),
    recall: (consistency: string) => subMetric(FRESHNESS_METRIC.recall, { ...sel, consistency }),
    writeAck: (writer: Writer) => subMetric(FRESHNESS_METRIC.writeAck, { ...sel, writer }),
    queries: (consistency: string) => queryKeys(sampleTags(band, consistency, 'ann')),
    unindexed: (edge: 'start' | 'end') => subMetric(FRESHNESS_METRIC.snapshotUnindexed, { ...sel, edge }),
    time: (edge: 'start' | 'end') => subMetric(FRESHNESS_METRIC.snapshotTime, { ...sel, edge }),
    windowStart: subMetric(FRESHNESS_METRIC.windowStart, sel),
    windowEnd: subMetric(FRESHNESS_METRIC.windowEnd, sel),
  };
}

/** The chart's per-bucket keys: the backlog at the acks in bucket `ts`, and each read kind's lag there. */
export function pointKeys(ts: string) {
  return {
    backlog: subMetric(FRESHNESS_METRIC.pointBacklog, { ts }),
    lag: (read: ReadKind) => subMetric(FRESHNESS_METRIC.pointLag, { ts, read }),
  };
}
