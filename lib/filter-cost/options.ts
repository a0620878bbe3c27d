// Experiment 2's k6 options: a JIT warm-up scenario, then one constant-arrival-rate scenario per query cell, one
// after another (each starts when the previous one's graceful stop has ended, so VUs move on warm and cells never
// overlap), and the thresholds that gate the run and expose every cell's sub-metrics. Pure.
import type { Options } from 'k6/options';
import { ERROR_CLASSES, queryTrendKeys, type Thresholds } from '../metric-names';
import { queryArrivalScenario } from '../query-scenario';
import { SUMMARY_TREND_STATS } from '../results/summary-data';
import type { QueryCell } from './cells';
import type { FilterCostConfig } from './config';
import { cellKeys } from './metric-keys';

/** Scenario name of the warm-up before the first cell. */
export const JIT_SCENARIO = 'jit_warmup';

export interface CellWindow {
  id: string;
  /** Offset of the scenario's start from the end of setup(), ms. */
  startMs: number;
  /** Unmeasured, then measured milliseconds. */
  warmupMs: number;
  measuredMs: number;
}

export interface Timeline {
  jitMs: number;
  windows: CellWindow[];
  /** When the last cell's graceful stop ends, ms after setup(). */
  totalMs: number;
}

export function timeline(c: FilterCostConfig, cells: readonly QueryCell[]): Timeline {
  const jitMs = c.jitWarmupS * 1000;
  const gapMs = c.cellGapS * 1000;
  const step = (c.queryWarmupS + c.queryDurationS) * 1000 + gapMs;
  // The warm-up scenario is followed by the same gap as every cell: VUs handed over at the very instant the next
  // scenario starts may miss its first starts (dropped iterations).
  const first = jitMs > 0 ? jitMs + gapMs : 0;
  const windows = cells.map((cell, i) => ({
    id: cell.id,
    startMs: first + i * step,
    warmupMs: c.queryWarmupS * 1000,
    measuredMs: c.queryDurationS * 1000,
  }));
  return { jitMs, windows, totalMs: first + cells.length * step };
}

/** Iterations of a cell's scenario before this number are warm-up (the arrival schedule is deterministic). */
export function warmupIterations(c: FilterCostConfig): number {
  return Math.ceil(c.queryWarmupS * c.queryRate);
}

function arrivalScenario(c: FilterCostConfig, startMs: number, durationMs: number) {
  return queryArrivalScenario(c, {
    durationS: durationMs / 1000,
    startS: startMs / 1000,
    gracefulStopS: c.cellGapS,
  });
}

export function filterCostThresholds(
  cells: readonly QueryCell[],
  options: { exactRowCounts: boolean },
): Thresholds {
  const t: Thresholds = {};
  for (const cell of cells) {
    const k = cellKeys(cell);
    // Every cell is measured, fails nowhere, and keeps to its arrival schedule.
    t[k.requests] = ['count>0'];
    t[k.failed] = ['rate==0'];
    t[k.dropped] = ['count==0'];
    // Never more rows than the filter matches; exactly min(TOP_K, matches) where the target is exact (emulator).
    t[k.returnedRows] = options.exactRowCounts
      ? [`min>=${cell.expectedRows}`, `max<=${cell.expectedRows}`]
      : [`max<=${cell.expectedRows}`];
    // Always true: only there so k6 reports these sub-metrics in the summary data.
    for (const cls of ERROR_CLASSES) t[k.errors(cls)] = ['count>=0'];
    for (const key of [...queryTrendKeys(k), k.billableQueried]) t[key] = ['max>=0'];
  }
  return t;
}

export function filterCostOptions(c: FilterCostConfig, cells: readonly QueryCell[]): Options {
  const plan = timeline(c, cells);
  const scenarios: NonNullable<Options['scenarios']> = {};
  if (plan.jitMs > 0) scenarios[JIT_SCENARIO] = arrivalScenario(c, 0, plan.jitMs);
  for (const w of plan.windows) scenarios[w.id] = arrivalScenario(c, w.startMs, w.warmupMs + w.measuredMs);
  return {
    scenarios,
    thresholds: filterCostThresholds(cells, { exactRowCounts: c.target.kind === 'emulator' }),
    tags: { config: c.label },
    // Ingest keeps WRITE_CONCURRENCY requests in flight through http.batch (k6's defaults would cap it at 6).
    batch: c.writeConcurrency,
    batchPerHost: c.writeConcurrency,
    setupTimeout: `${c.setupTimeoutS}s`,
    teardownTimeout: '120s',
    summaryTrendStats: [...SUMMARY_TREND_STATS],
  } satisfies Options;
}
