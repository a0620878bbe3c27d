// Experiment 2's k6 options: a JIT warm-up scenario, then one query scenario per window (a cell at one consistency:
// strong, then eventual), one after another (each starts when the previous one's graceful stop has ended, so VUs
// move on warm and windows never overlap), and the thresholds that gate the run and expose every window's
// sub-metrics. The load model is QUERY_MODE's (lib/query-scenario.ts). Pure.
import type { Options } from 'k6/options';
import { ERROR_CLASSES, queryTrendKeys, type Thresholds } from '../metric-names';
import { queryScenario } from '../query-scenario';
import { CONSISTENCIES, distinctFilters, type QueryCell } from './cells';
import type { FilterCostConfig } from './config';
import { cellKeys, FILTER_COST_METRIC, selectivityKey } from './metric-keys';
import { GRID_TREND_STATS } from './quantile-grid';
import { filterCostSeriesThresholds } from './series';
import { timeline } from './timeline';

/** teardown() may take this long (deleting every namespace); the cost plan's duration counts it. */
export const TEARDOWN_TIMEOUT_S = 300;

/** Scenario name of the warm-up before the first window. */
export const JIT_SCENARIO = 'jit_warmup';

/** A filter's measured share may differ from its target by this factor at most (the smoke run's acceptance). */
const SELECTIVITY_TOLERANCE = 0.2;

export function filterCostThresholds(
  c: Pick<FilterCostConfig, 'load' | 'target'>,
  cells: readonly QueryCell[],
): Thresholds {
  const exact = c.target.kind === 'emulator';
  const arrival = c.load.mode === 'arrival';
  // No write fails (429s are retried and counted, not failures) and nothing drops off the arrival schedule.
  const t: Thresholds = {
    [FILTER_COST_METRIC.writeErrors]: ['count==0'],
    [FILTER_COST_METRIC.writeRetries429]: ['count>=0'],
  };
  if (arrival) t.dropped_iterations = ['count==0'];
  for (const cell of cells)
    for (const consistency of CONSISTENCIES) {
      const k = cellKeys(cell, consistency);
      // Every window is measured and no query fails.
      t[k.requests] = ['count>0'];
      t[k.failed] = ['rate==0'];
      // Never more rows than the filter matches; exactly min(TOP_K, matches) where the target is exact (emulator).
      t[k.returnedRows] = exact
        ? [`min>=${cell.expectedRows}`, `max<=${cell.expectedRows}`]
        : [`max<=${cell.expectedRows}`];
      // Always true: only there so k6 reports these sub-metrics in the summary data.
      for (const cls of ERROR_CLASSES) t[k.errors(cls)] = ['count>=0'];
      for (const key of queryTrendKeys(k, c.load.mode)) t[key] = ['max>=0'];
      if (arrival) t[k.dropped] = ['count>=0'];
    }
  // Every filter matches its target share within the tolerance (counted by the service in setup()).
  for (const cell of distinctFilters(cells))
    t[selectivityKey(cell)] = [`value>=${1 - SELECTIVITY_TOLERANCE}`, `value<=${1 + SELECTIVITY_TOLERANCE}`];
  return t;
}

export function filterCostOptions(c: FilterCostConfig, cells: readonly QueryCell[]): Options {
  const plan = timeline(c, cells);
  const scenarios: NonNullable<Options['scenarios']> = {};
  const gracefulStopMs = Math.round(c.cellGapS * 1000);
  if (plan.jitMs > 0)
    scenarios[JIT_SCENARIO] = queryScenario(c.load, { durationMs: plan.jitMs, gracefulStopMs });
  for (const w of plan.windows)
    scenarios[w.scenario] = queryScenario(c.load, {
      startMs: w.startMs,
      durationMs: w.warmupMs + w.measuredMs,
      gracefulStopMs,
    });
  return {
    scenarios,
    thresholds: { ...filterCostThresholds(c, cells), ...filterCostSeriesThresholds(c, plan) },
    // Ingest keeps WRITE_CONCURRENCY requests in flight through http.batch (k6's defaults would cap it at 6).
    batch: c.writeConcurrency,
    batchPerHost: c.writeConcurrency,
    setupTimeout: `${c.setupTimeoutS}s`,
    teardownTimeout: `${TEARDOWN_TIMEOUT_S}s`,
    summaryTrendStats: [...GRID_TREND_STATS],
  } satisfies Options;
}
