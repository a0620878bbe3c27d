// The query scenario both experiments run, in either load model: `constant-arrival-rate` (QUERY_MODE=arrival, the
// open model: QUERY_RATE starts per second whatever the latency, with QUERY_VUS pre-allocated) or `constant-vus`
// (QUERY_MODE=workers, the published harnesses' closed loop: QUERY_WORKERS VUs, each sending its next query when
// its last one answered). Typed against @types/k6 with `satisfies`, so a misspelt executor field fails the type-check.
import type { ConstantArrivalRateScenario, ConstantVUsScenario } from 'k6/options';
import type { QueryLoad } from './common-knobs';

export interface QueryScenarioTiming {
  durationMs: number;
  /** Offset from the end of setup(); omitted = the scenario starts at once. */
  startMs?: number;
  /** How long iterations still running at the end may finish. */
  gracefulStopMs: number;
  /** The function the scenario runs. @default query */
  exec?: string;
}

/**
 * A rate in queries per second as k6's integer `rate` per `timeUnit`: k6 refuses a fractional rate, so 2.5/s is
 * 5 per 2s (the smallest whole number of seconds, up to 1000, that makes it whole; QUERY_RATE has at most three
 * decimals).
 */
export function arrivalRate(perSecond: number): { rate: number; timeUnit: string } {
  for (let seconds = 1; seconds <= 1000; seconds++) {
    const rate = perSecond * seconds;
    if (Math.abs(rate - Math.round(rate)) < 1e-9) return { rate: Math.round(rate), timeUnit: `${seconds}s` };
  }
  throw new Error(`${perSecond} queries/s has more than three decimals`);
}

export function queryScenario(l: QueryLoad, t: QueryScenarioTiming) {
  const common = {
    exec: t.exec ?? 'query',
    duration: `${t.durationMs}ms`,
    ...(t.startMs === undefined ? {} : { startTime: `${t.startMs}ms` }),
    gracefulStop: `${t.gracefulStopMs}ms`,
  };
  if (l.mode === 'workers')
    return { executor: 'constant-vus', vus: l.workers, ...common } satisfies ConstantVUsScenario;
  return {
    executor: 'constant-arrival-rate',
    ...arrivalRate(l.rate),
    preAllocatedVUs: l.vus,
    maxVUs: l.maxVus,
    ...common,
  } satisfies ConstantArrivalRateScenario;
}

/** VUs the scenario can run at once (what a cost bound or a metadata-read bound counts). */
export function queryScenarioVus(l: QueryLoad): number {
  return l.mode === 'workers' ? l.workers : l.maxVus;
}

/**
 * Queries per second the scenario can start at most, for cost bounds. A closed loop has no rate: each worker is
 * counted at one query per 10 ms, the floor of a strongly consistent read on the real service.
 */
export function queryRateBound(l: QueryLoad): number {
  return l.mode === 'workers' ? l.workers * 100 : l.rate;
}
