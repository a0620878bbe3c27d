// The published table of experiment 1, kept as data so charts and comparisons can show it beside a run's figures:
// client and server percentiles and the error share per phase and consistency. Published conditions:
// turbopuffer gcp-us-central1, 2026-06-05, 8 closed-loop query workers, 60 s measured per cell, 2 GiB backlog limit.
import type { Consistency } from '../turbopuffer-wire';
import type { PhaseName } from './phases';

export interface PublishedBacklogRow {
  phase: PhaseName;
  consistency: Consistency;
  /** Share of the cell's queries that failed. */
  errorRate: number;
  clientMs: { p50: number; p95: number; p99: number };
  serverMs: { p50: number; p95: number };
}

export const PUBLISHED_BACKLOG: readonly PublishedBacklogRow[] = [
  {
    phase: 'idle',
    consistency: 'strong',
    errorRate: 0,
    clientMs: { p50: 53.2, p95: 65.8, p99: 79.8 },
    serverMs: { p50: 16, p95: 23 },
  },
  {
    phase: 'idle',
    consistency: 'eventual',
    errorRate: 0,
    clientMs: { p50: 50.9, p95: 62.5, p99: 75.7 },
    serverMs: { p50: 4, p95: 5 },
  },
  {
    phase: 'indexing_below_limit',
    consistency: 'strong',
    errorRate: 0,
    clientMs: { p50: 56.4, p95: 98.5, p99: 264.8 },
    serverMs: { p50: 19, p95: 27 },
  },
  {
    phase: 'indexing_below_limit',
    consistency: 'eventual',
    errorRate: 0,
    clientMs: { p50: 50.7, p95: 60.4, p99: 71.1 },
    serverMs: { p50: 4, p95: 5 },
  },
  {
    phase: 'indexing_above_limit',
    consistency: 'strong',
    errorRate: 0.45,
    clientMs: { p50: 89.4, p95: 529.4, p99: 694.8 },
    serverMs: { p50: 23, p95: 32 },
  },
  {
    phase: 'indexing_above_limit',
    consistency: 'eventual',
    errorRate: 0,
    clientMs: { p50: 72.5, p95: 440.9, p99: 626.0 },
    serverMs: { p50: 4, p95: 5 },
  },
];

/** The real service's unindexed-bytes limit above which strong queries may fail (2 GiB). */
export const SERVICE_BACKLOG_LIMIT_BYTES = 2 * 2 ** 30;
