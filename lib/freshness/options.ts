// Experiment 3's k6 options: the bulk writers, the probes (an arrival rate; each iteration reads its probe until
// seen) and the sampled queries, all bounded by the bands' longest duration, and the thresholds (./thresholds.ts).
// Typed against @types/k6 with `satisfies`, so a misspelt executor field fails the type-check. Pure.
import type { ConstantArrivalRateScenario, ConstantVUsScenario, Options } from 'k6/options';
import { arrivalRate, queryScenario } from '../query-scenario';
import { SUMMARY_TREND_STATS } from '../results/summary-data';
import { bandsDurationMs } from './bands';
import type { FreshnessConfig } from './config';
import { TEARDOWN_TIMEOUT_S } from './cost-plan';
import { freshnessThresholds } from './thresholds';

/** How long the sampled queries may finish after the bands. */
const SAMPLE_GRACEFUL_STOP_MS = 10_000;

/** VUs the probe scenario needs: one per probe being read at once, at most PROBE_TIMEOUT_S each. */
function probeVus(c: FreshnessConfig): number {
  return Math.ceil(c.probeRate * (c.probeTimeoutS + 5)) + 2;
}

export function freshnessOptions(c: FreshnessConfig): Options {
  const durationMs = bandsDurationMs(c);
  return {
    scenarios: {
      writers: {
        executor: 'constant-vus',
        exec: 'write',
        vus: c.writers,
        duration: `${durationMs}ms`,
        gracefulStop: '5s',
      } satisfies ConstantVUsScenario,
      probes: {
        executor: 'constant-arrival-rate',
        exec: 'probe',
        ...arrivalRate(c.probeRate),
        duration: `${durationMs}ms`,
        preAllocatedVUs: probeVus(c),
        maxVUs: probeVus(c),
        // A probe written at the end of the last band is still read until it is seen or times out.
        gracefulStop: `${c.probeTimeoutS + 10}s`,
      } satisfies ConstantArrivalRateScenario,
      samples: queryScenario(c.load, { durationMs, gracefulStopMs: SAMPLE_GRACEFUL_STOP_MS, exec: 'sample' }),
    },
    thresholds: freshnessThresholds(c),
    setupTimeout: `${c.setupTimeoutS}s`,
    teardownTimeout: `${TEARDOWN_TIMEOUT_S}s`,
    summaryTrendStats: [...SUMMARY_TREND_STATS],
  } satisfies Options;
}
