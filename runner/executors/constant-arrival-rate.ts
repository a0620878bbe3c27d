// constant-arrival-rate: iterations start at a fixed rate (open model); a due start with no idle VU is dropped.
import { formatGoDuration } from '../../core/durations';
import { type ArrivalPlan, type ArrivalPool, arrivalVu, runArrival, segmentArrival } from './arrival-run';
import { type BaseScenarioConfig, describeFacts, type FieldReader, readBase } from './base';
import type { Executor } from './executor';

export interface ConstantArrivalRateConfig extends BaseScenarioConfig, ArrivalPool {
  executor: 'constant-arrival-rate';
  /** Iterations per timeUnit. */
  rate: number;
  /** ms */
  timeUnit: number;
  duration: number;
  preAllocatedVUs: number;
  maxVUs: number;
}

/** Reads preAllocatedVUs/maxVUs/timeUnit shared by both arrival-rate executors. */
export function readArrivalPool(r: FieldReader): {
  timeUnit: number;
  preAllocatedVUs: number;
  maxVUs: number;
} {
  const timeUnit = r.duration('timeUnit', 1000);
  const preAllocatedVUs = r.int('preAllocatedVUs', undefined);
  const maxVUs = r.int('maxVUs', preAllocatedVUs);
  if (timeUnit <= 0) r.invalid('timeUnit', 'timeUnit must be more than 0');
  if (preAllocatedVUs < 0)
    r.invalid('preAllocatedVUs', `preAllocatedVUs must not be negative, got ${preAllocatedVUs}`);
  if (maxVUs < preAllocatedVUs)
    r.invalid(
      ['maxVUs', 'preAllocatedVUs'],
      `maxVUs (${maxVUs}) must be at least preAllocatedVUs (${preAllocatedVUs})`,
    );
  return { timeUnit, preAllocatedVUs, maxVUs };
}

function parseConstantArrivalRate(name: string, r: FieldReader): ConstantArrivalRateConfig {
  const base = readBase(name, 'constant-arrival-rate', r);
  const rate = r.int('rate', undefined);
  const duration = r.duration('duration', undefined);
  const pool = readArrivalPool(r);
  if (rate <= 0) r.invalid('rate', `rate must be more than 0, got ${rate}`);
  if (duration < 1000)
    r.invalid('duration', `duration must be at least 1s, got ${formatGoDuration(duration)}`);
  return { ...base, executor: 'constant-arrival-rate', rate, duration, ...pool };
}

export function maxVusFact(pre: number, max: number): string {
  return pre === max ? `maxVUs: ${max}` : `maxVUs: ${pre}-${max}`;
}

export const constantArrivalRate: Executor<ConstantArrivalRateConfig, ArrivalPlan> = {
  parse: parseConstantArrivalRate,
  // The described rate is the whole rate times the instance's share of maxVUs (k6's description).
  segment: (c, t) => segmentArrival(c, t, (_split, maxVUs) => maxVUs / c.maxVUs),
  describe: (c) => {
    const perSecond = ((c.rate * 1000) / c.timeUnit) * (c.rateShare ?? 1);
    return `${perSecond.toFixed(2)} iterations/s for ${formatGoDuration(c.duration)}${describeFacts(c, [maxVusFact(c.preAllocatedVUs, c.maxVUs)])}`;
  },
  plannedVUs: (c) => c.preAllocatedVUs,
  maxVUs: (c) => c.maxVUs,
  regularDuration: (c) => c.duration,
  run: (c, s) => runArrival(c, c.duration, s),
  waitsBeforeEachIteration: true,
  vu: arrivalVu,
};
