// ramping-vus: the number of looping VUs follows stages; the step rule lives in ramping-vus-schedule.ts.
import { formatGoDuration } from '../options/durations';
import { type BaseScenarioConfig, describeFacts, type FieldReader, readBase } from './base';

export interface Stage {
  /** ms */
  duration: number;
  target: number;
}

export interface RampingVusConfig extends BaseScenarioConfig {
  executor: 'ramping-vus';
  startVUs: number;
  stages: Stage[];
  gracefulRampDown: number;
}

export function parseRampingVus(name: string, r: FieldReader): RampingVusConfig {
  const base = readBase(name, 'ramping-vus', r);
  const startVUs = r.int('startVUs', 1);
  const stages = r.stages('stages');
  const gracefulRampDown = r.duration('gracefulRampDown', 30_000);
  if (startVUs < 0) r.problem(`startVUs must not be negative, got ${startVUs}`);
  if (stages.length > 0 && startVUs === 0 && stages.every((s) => s.target === 0))
    r.problem('either startVUs or one of the stage targets must be more than 0');
  return { ...base, executor: 'ramping-vus', startVUs, stages, gracefulRampDown };
}

export function rampingVusMax(c: RampingVusConfig): number {
  return Math.max(c.startVUs, ...c.stages.map((s) => s.target));
}

export function stagesTotal(stages: Stage[]): number {
  return stages.reduce((sum, s) => sum + s.duration, 0);
}

export function describeRampingVus(c: RampingVusConfig): string {
  const facts = [`gracefulRampDown: ${formatGoDuration(c.gracefulRampDown)}`];
  return `Up to ${rampingVusMax(c)} looping VUs for ${formatGoDuration(stagesTotal(c.stages))} over ${c.stages.length} stages${describeFacts(c, facts)}`;
}
