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
    rate: l.rate,
    timeUnit: '1s',
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
