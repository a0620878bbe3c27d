// Experiment 1's result JSON, a stable shape (issue 5): scripts and jq recipes rely on these keys. Pure.

import { queryLoadRecord } from '../../common-knobs';
import type { EmulatorInfo } from '../../emulator-info';
import { type RunRecord, runRecordFields } from '../../results/run-record';
import { runStatus } from '../../results/run-status';
import { runOutcome, type SummaryData } from '../../results/summary-data';
import type { TimeSeries } from '../../time-series';
import type { Versions } from '../../versions';
import type { BacklogConfig } from '../config';
import { BACKLOG_METRIC } from '../metric-keys';
import { scenarioDurationMs, scheduleOf, TICK_MS } from '../phases';
import { buildBacklogSeries } from '../series';
import { buildCells, buildSnapshots, type Cell, type MetadataSnapshot } from './cells';

/**
 * Keys in this order: experiment, namespace, started_at, finished_at, target, config, versions, cells,
 * metadata_snapshots, dropped_iterations, writes, thresholds, series.
 */
export interface BacklogResult extends RunRecord {
  experiment: 'backlog';
  namespace: string;
  cells: Cell[];
  metadata_snapshots: MetadataSnapshot[];
  /** What the writers did after setup: rows acknowledged and failed write requests (all phases). */
  writes: { rows: number; errors: number };
  /** Queries, metadata polls and writes over time, with the cells' windows (lib/time-series.ts). */
  series: TimeSeries;
}

/** What setup() and handleSummary know about the run beyond the summary metrics. */
export interface RunInfo {
  namespace: string;
  seed: number;
  startedAtMs: number;
  finishedAtMs: number;
  /** The phase machine's t0 (epoch ms): the time series' origin. */
  t0: number;
  /** Metadata once the seed rows were indexed. */
  setupSnapshot: { timeMs: number; unindexedBytes: number; approxRowCount: number | null } | null;
  /** What the emulator said about itself; null for the real service. */
  emulator: EmulatorInfo | null;
  versions: Versions;
}

function configKnobs(c: BacklogConfig, seed: number): BacklogResult['config'] {
  return {
    TURBOPUFFER_BASE_URL: c.target.baseUrl,
    NAMESPACE: c.namespace ?? null,
    SEED_ROWS: c.seedRows,
    MAX_TOTAL_ROWS: c.maxTotalRows,
    QUERY_DURATION_S: c.queryDurationS,
    QUERY_WARMUP_S: c.queryWarmupS,
    LT_START_BYTES: c.ltStartBytes,
    LT_CAP_BYTES: c.ltCapBytes,
    GT_START_BYTES: c.gtStartBytes,
    ALLOW_SMALL_THRESHOLDS: c.allowSmallThresholds,
    CLEANUP: c.cleanup,
    ...queryLoadRecord(c.load),
    TOP_K: c.topK,
    DIMS: c.dims,
    SEED: seed,
    RECALL_RATE: c.recallRate,
    WRITERS: c.writers,
    WRITE_BATCH_ROWS: c.writeBatchRows,
    SEED_BATCH_ROWS: c.seedBatchRows,
    PHASE_TIMEOUT_S: c.phaseTimeoutS,
    SETUP_TIMEOUT_S: c.setupTimeoutS,
    RESULTS_DIR: c.resultsDir,
  };
}

export function buildResult(data: SummaryData, config: BacklogConfig, run: RunInfo): BacklogResult {
  const snapshots = buildSnapshots(data);
  if (run.setupSnapshot)
    snapshots.unshift({
      time: new Date(run.setupSnapshot.timeMs).toISOString(),
      unindexed_bytes: run.setupSnapshot.unindexedBytes,
      approx_row_count: run.setupSnapshot.approxRowCount,
      label: 'setup',
    });
  const cells = buildCells(data, config.queryDurationS);
  // setup() returned at most two ticks before t0, and the scenarios last the bound from there.
  const plannedEnd = run.t0 - 2 * TICK_MS + scenarioDurationMs(scheduleOf(config));
  const status = runStatus(run.finishedAtMs, plannedEnd, whereStopped(cells, run.finishedAtMs));
  const outcome = runOutcome(data, status.status === 'aborted');
  return {
    experiment: 'backlog',
    namespace: run.namespace,
    ...runRecordFields({ ...run, status, target: config.target, config: configKnobs(config, run.seed) }),
    cells,
    metadata_snapshots: snapshots,
    dropped_iterations: outcome.dropped_iterations,
    writes: {
      rows: data.metrics[BACKLOG_METRIC.rowsWritten]?.values.count ?? 0,
      errors: data.metrics[BACKLOG_METRIC.writeErrors]?.values.count ?? 0,
    },
    thresholds: outcome.thresholds,
    series: buildBacklogSeries(data, config, run.t0, run.namespace, cells),
  };
}

/** Which cell was measuring at `atMs`, or the last one that ended before it. */
function whereStopped(cells: readonly Cell[], atMs: number): string {
  const ms = (iso: string | null) => (iso === null ? Number.NaN : Date.parse(iso));
  const during = cells.find((c) => ms(c.window.start) <= atMs && atMs < ms(c.window.end));
  if (during) return `during the ${during.phase}, ${during.consistency} cell`;
  const ended = cells.filter((c) => ms(c.window.end) <= atMs).pop();
  return ended ? `after the ${ended.phase}, ${ended.consistency} cell` : 'before the first cell was measured';
}
