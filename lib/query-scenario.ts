// The open-model query scenario both experiments run: `query` started QUERY_RATE times a second on a
// constant-arrival-rate schedule, with QUERY_VUS pre-allocated and at most QUERY_MAX_VUS. Typed against @types/k6
// with `satisfies`, so a misspelt executor field fails the type-check.
import type { ConstantArrivalRateScenario } from 'k6/options';

/** The knobs that size the query load (same names and meaning in both experiments' configs). */
export interface QueryLoad {
  queryRate: number;
  queryVus: number;
  queryMaxVus: number;
}

export interface QueryScenarioTiming {
  durationS: number;
  /** Offset from the end of setup(); omitted = the scenario starts at once. */
  startS?: number;
  /** How long iterations still running at the end may finish. */
  gracefulStopS: number;
}

export function queryArrivalScenario(c: QueryLoad, t: QueryScenarioTiming) {
  return {
    executor: 'constant-arrival-rate',
    exec: 'query',
    rate: c.queryRate,
    timeUnit: '1s',
    duration: `${t.durationS}s`,
    ...(t.startS === undefined ? {} : { startTime: `${t.startS}s` }),
    preAllocatedVUs: c.queryVus,
    maxVUs: c.queryMaxVus,
    gracefulStop: `${t.gracefulStopS}s`,
  } satisfies ConstantArrivalRateScenario;
}
