// Experiment 1's k6 options from its config: the query scenario (open model or closed-loop workers), a writer scenario
// and the thresholds.
// Typed against @types/k6 with `satisfies`, so a misspelt executor field fails the type-check.
import type { ConstantArrivalRateScenario, ConstantVUsScenario, Options } from 'k6/options';
import { arrivalRate, queryScenario as sharedQueryScenario } from '../query-scenario';
import { SUMMARY_TREND_STATS } from '../results/summary-data';
import type { BacklogConfig } from './config';
import { gatesOf, scenarioDurationMs, scheduleOf } from './phases';
import { backlogSeriesThresholds } from './series';
import { backlogThresholds } from './thresholds';

/** How long the run's parts may last beyond the scenarios' bound (the cost plan's duration counts them too). */
export const QUERY_GRACEFUL_STOP_MS = 10_000;
export const TEARDOWN_TIMEOUT_S = 120;

/** The scenarios' length in whole seconds: the bound of ./phases.ts, rounded up. */
export function scenarioSeconds(c: BacklogConfig): number {
  return Math.ceil(scenarioDurationMs(scheduleOf(c)) / 1000);
}

/** Queries for the whole bounded duration (QUERY_MODE decides the load); iterations after the last cell are no-ops. */
function queryScenario(c: BacklogConfig, durationS: number) {
  return sharedQueryScenario(c.load, {
    durationMs: durationS * 1000,
    gracefulStopMs: QUERY_GRACEFUL_STOP_MS,
  });
}

/** Writers loop for the same duration; each iteration is one write (or waits until one is due). */
function writerScenario(c: BacklogConfig, durationS: number) {
  return {
    executor: 'constant-vus',
    exec: 'write',
    vus: c.writers,
    duration: `${durationS}s`,
    gracefulStop: '5s',
  } satisfies ConstantVUsScenario;
}

/** Recall samples for the same duration (none with RECALL_RATE=0): two VUs a rate unit, as the query VUs. */
function recallScenario(c: BacklogConfig, durationS: number) {
  const vus = Math.max(2, Math.ceil(c.recallRate));
  return {
    executor: 'constant-arrival-rate',
    exec: 'recall',
    ...arrivalRate(c.recallRate),
    duration: `${durationS}s`,
    preAllocatedVUs: vus,
    maxVUs: vus,
    gracefulStop: `${QUERY_GRACEFUL_STOP_MS}ms`,
  } satisfies ConstantArrivalRateScenario;
}

export function scenarioOptionsFor(c: BacklogConfig): Options {
  const durationS = scenarioSeconds(c);
  return {
    scenarios: {
      queries: queryScenario(c, durationS),
      writer: writerScenario(c, durationS),
      ...(c.recallRate > 0 ? { recall: recallScenario(c, durationS) } : {}),
    },
    thresholds: { ...backlogThresholds(gatesOf(c), c.load.mode), ...backlogSeriesThresholds(c) },
    setupTimeout: `${c.setupTimeoutS}s`,
    teardownTimeout: `${TEARDOWN_TIMEOUT_S}s`,
    summaryTrendStats: [...SUMMARY_TREND_STATS],
  } satisfies Options;
}
