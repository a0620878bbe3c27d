// Experiment 2's result JSON: one file for the whole study, a stable shape scripts rely on (issue 12). Every figure
// the report shows can be recomputed from it: the polls behind each peak and drain, the ingest behind every rate, and
// each window's latency grid behind its percentiles and intervals. Pure.
import { type RunRecord, runRecordFields } from '../../results/run-record';
import { type RunStatus, runStatus } from '../../results/run-status';
import { runOutcome, type SummaryData } from '../../results/summary-data';
import type { TimeSeries } from '../../time-series';
import type { Versions } from '../../versions';
import type { StudyPlan, UnreachableCell } from '../cells';
import { configKnobs, type FilterCostConfig } from '../config';
import { GRID_PERCENTS } from '../quantile-grid';
import { buildFilterCostSeries } from '../series';
import type { DrainStats, IngestStats, SetupData, StorageStats } from '../setup-data';
import { type Timeline, timeline } from '../timeline';
import { buildCells, type FilterCostCell } from './cells';
import {
  baselineMean,
  driftPct,
  type FilterableDelta,
  filterableDeltas,
  type IngestFigures,
  vsBaselineMeanPct,
} from './comparisons';

export interface ConfigurationResult {
  name: string;
  namespace: string;
  attribute: { type: 'int' | 'string' | 'none'; cardinality: number | null; filterable: boolean | null };
  ingest: IngestStats & {
    /** Rows acknowledged per wall-clock second. */
    rows_per_s: number | null;
    /** Request JSON megabytes (10^6) per wall-clock second. */
    mb_per_s: number | null;
    /** Ingest throughput against the mean of the baselines, in % (null for a baseline). */
    vs_baseline_mean_pct: number | null;
  };
  drain: DrainStats;
  storage: StorageStats;
}

/**
 * Keys in this order: experiment, namespace_prefix, started_at, finished_at, target, config, versions,
 * configurations, drift_pct, baseline_mean_rows_per_s, filterable_deltas, cells, unreachable, latency_grid_percents,
 * dropped_iterations, thresholds, series.
 */
export interface FilterCostResult extends RunRecord {
  experiment: 'filter-cost';
  /** Namespaces were `<prefix>-<configuration>`. */
  namespace_prefix: string;
  configurations: ConfigurationResult[];
  /** Ingest throughput of the last baseline against the first, in %: how much the run drifted. */
  drift_pct: number | null;
  baseline_mean_rows_per_s: number | null;
  filterable_deltas: FilterableDelta[];
  /** Every window: each cell at strong, then eventual. */
  cells: FilterCostCell[];
  unreachable: UnreachableCell[];
  /** The percentiles of every cell's latency_grid. */
  latency_grid_percents: readonly number[];
  /** Metadata polls and queries over time, with every ingest, drain and query window (lib/time-series.ts). */
  series: TimeSeries;
}

export interface FilterCostRunInfo {
  setup: SetupData;
  finishedAtMs: number;
  versions: Versions;
}

const perSecond = (amount: number, seconds: number) => (seconds > 0 ? amount / seconds : null);

export function buildFilterCostResult(
  data: SummaryData,
  c: FilterCostConfig,
  plan: StudyPlan,
  run: FilterCostRunInfo,
): FilterCostResult {
  const { setup } = run;
  const byName = new Map(c.configurations.map((x) => [x.name, x]));
  const figures: IngestFigures[] = setup.configurations.map((x) => ({
    name: x.name,
    attribute: byName.get(x.name)?.attribute ?? null,
    rows_per_s: perSecond(x.ingest.rows, x.ingest.wall_s),
    approx_logical_bytes: x.storage.approx_logical_bytes,
    billable_bytes_written: x.storage.billing.billable_logical_bytes_written,
  }));
  const mean = baselineMean(figures);
  const configurations = setup.configurations.map((x, i): ConfigurationResult => {
    const a = figures[i].attribute;
    return {
      name: x.name,
      namespace: x.namespace,
      attribute: a
        ? { type: a.type, cardinality: a.cardinality, filterable: a.filterable }
        : { type: 'none', cardinality: null, filterable: null },
      ingest: {
        ...x.ingest,
        rows_per_s: figures[i].rows_per_s,
        mb_per_s: perSecond(x.ingest.request_bytes / 1e6, x.ingest.wall_s),
        vs_baseline_mean_pct: vsBaselineMeanPct(figures[i], mean),
      },
      drain: x.drain,
      storage: x.storage,
    };
  });
  const t = timeline(c, plan.cells);
  const status = studyStatus(t, setup.setupEndedAtMs, run.finishedAtMs);
  const outcome = runOutcome(data, status.status === 'aborted');
  return {
    experiment: 'filter-cost',
    namespace_prefix: setup.prefix,
    ...runRecordFields({
      status,
      startedAtMs: setup.startedAtMs,
      finishedAtMs: run.finishedAtMs,
      target: c.target,
      emulator: setup.emulator,
      config: configKnobs(c, setup.seed),
      versions: run.versions,
    }),
    configurations,
    drift_pct: driftPct(figures),
    baseline_mean_rows_per_s: mean,
    filterable_deltas: filterableDeltas(figures),
    cells: buildCells(data, plan.cells, setup.configurations, {
      rows: c.rows,
      measuredS: c.queryDurationS,
      arrival: c.load.mode === 'arrival',
    }),
    unreachable: plan.unreachable,
    latency_grid_percents: GRID_PERCENTS,
    dropped_iterations: outcome.dropped_iterations,
    thresholds: outcome.thresholds,
    series: buildFilterCostSeries(data, t, setup),
  };
}

/**
 * Complete when the finish comes after the last window's measured end (counted from setup()'s return); otherwise
 * aborted, naming the window that was running.
 */
export function studyStatus(t: Timeline, setupEndedAtMs: number, finishedAtMs: number): RunStatus {
  const last = t.windows[t.windows.length - 1];
  const plannedEnd = setupEndedAtMs + (last ? last.startMs + last.warmupMs + last.measuredMs : t.totalMs);
  const at = finishedAtMs - setupEndedAtMs;
  const during = t.windows.find((w) => w.startMs <= at && at < w.startMs + w.warmupMs + w.measuredMs);
  const where = during
    ? `during the ${during.cell.id} window at ${during.consistency} consistency`
    : at < (t.windows[0]?.startMs ?? 0)
      ? 'before the first query window'
      : 'between two query windows';
  return runStatus(finishedAtMs, plannedEnd, where);
}
