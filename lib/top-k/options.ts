// The top-k experiment's k6 options: one query scenario per window (lib/query-scenario.ts, QUERY_MODE's load model),
// and thresholds that gate the run and make k6 keep every cell's sub-metrics in the summary. Pure.
import type { Options } from 'k6/options';
import { ERROR_CLASSES, queryTrendKeys, type Thresholds } from '../metric-names';
import { queryScenario } from '../query-scenario';
import { SUMMARY_TREND_STATS } from '../results/summary-data';
import type { TopKConfig } from './config';
import { cellKeys } from './metric-keys';
import { WINDOW_GAP_MS, windows } from './schedule';

export const TEARDOWN_TIMEOUT_S = 60;

function topKThresholds(c: Pick<TopKConfig, 'topKs' | 'load'>): Thresholds {
  const t: Thresholds = {};
  if (c.load.mode === 'arrival') t.dropped_iterations = ['count==0'];
  for (const topK of c.topKs) {
    const k = cellKeys(topK);
    // Every cell measured something, and nothing failed: an idle namespace answers every query.
    t[k.requests] = ['count>0'];
    t[k.failed] = ['rate==0'];
    for (const cls of ERROR_CLASSES) t[k.errors(cls)] = ['count>=0'];
    // Trends of a sub-metric reach the summary only when a threshold names them; these always hold.
    for (const key of queryTrendKeys(k, c.load.mode)) t[key] = ['max>=0'];
  }
  return t;
}

export function topKOptions(c: TopKConfig): Options {
  const scenarios: NonNullable<Options['scenarios']> = {};
  for (const w of windows(c))
    scenarios[w.scenario] = queryScenario(c.load, {
      startMs: w.startMs,
      durationMs: w.warmupMs + w.measuredMs,
      gracefulStopMs: WINDOW_GAP_MS,
    });
  return {
    scenarios,
    thresholds: topKThresholds(c),
    setupTimeout: `${c.setupTimeoutS}s`,
    teardownTimeout: `${TEARDOWN_TIMEOUT_S}s`,
    summaryTrendStats: [...SUMMARY_TREND_STATS],
  } satisfies Options;
}
