// ramping-arrival-rate: the iteration start rate moves linearly through stages (open model).
import { formatGoDuration } from '../../core/durations';
import { type ArrivalPlan, type ArrivalPool, arrivalVu, runArrival, segmentArrival } from './arrival-run';
import { type BaseScenarioConfig, describeFacts, type FieldReader, readBase } from './base';
import { maxVusFact, readArrivalPool } from './constant-arrival-rate';
import type { Executor } from './executor';
import { type Stage, stagesTotal } from './stages';

export interface RampingArrivalRateConfig extends BaseScenarioConfig, ArrivalPool {
  executor: 'ramping-arrival-rate';
  /** Iterations per timeUnit at t = 0. */
  startRate: number;
  timeUnit: number;
  /** `target` is a rate per timeUnit. */
  stages: Stage[];
  preAllocatedVUs: number;
  maxVUs: number;
}

function parseRampingArrivalRate(name: string, r: FieldReader): RampingArrivalRateConfig {
  const base = readBase(name, 'ramping-arrival-rate', r);
  const startRate = r.int('startRate', 0);
  const stages = r.stages('stages');
  const pool = readArrivalPool(r);
  if (startRate < 0) r.invalid('startRate', `startRate must not be negative, got ${startRate}`);
  return { ...base, executor: 'ramping-arrival-rate', startRate, stages, ...pool };
}

export const rampingArrivalRate: Executor<RampingArrivalRateConfig, ArrivalPlan> = {
  parse: parseRampingArrivalRate,
  // The described rate is the whole peak rate times the segment's length (k6's description).
  segment: (c, t) => segmentArrival(c, t, () => t.share),
  describe: (c) => {
    const maxRate = Math.max(c.startRate, ...c.stages.map((s) => s.target));
    const perSecond = ((maxRate * 1000) / c.timeUnit) * (c.rateShare ?? 1);
    return `Up to ${perSecond.toFixed(2)} iterations/s for ${formatGoDuration(stagesTotal(c.stages))} over ${c.stages.length} stages${describeFacts(c, [maxVusFact(c.preAllocatedVUs, c.maxVUs)])}`;
  },
  plannedVUs: (c) => c.preAllocatedVUs,
  maxVUs: (c) => c.maxVUs,
  regularDuration: (c) => stagesTotal(c.stages),
  run: (c, s) => runArrival(c, stagesTotal(c.stages), s),
  waitsBeforeEachIteration: true,
  vu: arrivalVu,
};
