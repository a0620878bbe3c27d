// Experiment 3's result JSON shape: a stable contract the report, the charts, the claims and scripts read. Pure types.

import type { QueryFigures } from '../../results/query-cell-figures';
import type { RunRecord } from '../../results/run-record';
import type { MetadataSeries } from '../../time-series';
import type { BandName } from '../bands';
import type { RESULTS } from '../metric-keys';
import type { ReadKind } from '../probe';

type Verdict = 'holds' | 'does not hold' | 'cannot show locally' | 'not measured';

/** One documented behaviour set against the run (./claims.ts). */
export interface Claim {
  /** The documented behaviour, in bench's words. */
  claim: string;
  /** What this run measured for it. */
  measured: string;
  verdict: Verdict;
  /** Why the verdict, where it is not plain from the figures. */
  why: string;
}

export type Ms = number | null;

export interface BandRecord {
  band: BandName;
  /** The gate on index.unindexed_bytes, bytes (max null: none). */
  gate: { min: number; max: number | null };
  window: { start: string | null; end: string | null };
  backlog_bytes: { start: number | null; end: number | null };
  probes: number;
  /** Rows per bulk write in this band. */
  bulk_batch_rows: number;
}

export interface VisibilityRow {
  band: BandName;
  consistency: 'strong' | 'eventual';
  method: 'id' | 'ann';
  probes: number;
  /** The first read after each probe's ack: what it found. */
  first_read: Record<(typeof RESULTS)[number], number>;
  /** Of the first reads answered (not refused, no error), the share that saw the probe; null when none. */
  seen_at_first_read: number | null;
  /** Ack to the first read that saw it; resolution: the probe interval. */
  lag_ms: { p50: Ms; p95: Ms; p99: Ms; max: Ms };
  never_seen: number;
  partial_reads: number;
  /** Eventual reads: how far outside the window indexing progress predicts they first saw a probe. */
  lag_error_ms: { min: Ms; max: Ms } | null;
}

export interface QueryRow extends QueryFigures {
  band: BandName;
  consistency: 'strong' | 'eventual';
  /** recall@k of these ANN queries against an exact kNN query of the same vector, over every acknowledged row. */
  recall_at_k: { mean: number | null; min: number | null; queries: number };
  /** The share of a probe's rows its first ANN read returned: recall of writes younger than one probe interval. */
  recent_recall: { mean: number | null; probes: number };
  /** Client p99 here over the idle band's at this consistency (vdb-streambench's jitter figure). */
  p99_jitter: number | null;
}

export interface WriteAckRow {
  band: BandName;
  writer: 'bulk' | 'probe';
  rows_per_write: number;
  writes: number;
  ms: { p50: Ms; p95: Ms; p99: Ms };
}

export interface FreshnessResult extends RunRecord {
  experiment: 'freshness';
  namespace: string;
  limits: {
    tail_limit_bytes: number;
    backlog_limit_bytes: number;
    probe_interval_ms: number;
    lag_tolerance_ms: number;
  };
  bands: BandRecord[];
  visibility: VisibilityRow[];
  queries: QueryRow[];
  write_ack: WriteAckRow[];
  /** Per series bucket of the probes' acks: the backlog then and each read kind's lag (the lag-vs-backlog chart). */
  points: { t_s: number[]; backlog_bytes: (number | null)[]; lag_ms: Record<ReadKind, Ms[]> };
  metadata: MetadataSeries;
  writes: { rows: number; errors: number };
  claims: Claim[];
}
