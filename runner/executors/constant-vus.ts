// constant-vus: a fixed number of VUs loop back-to-back for a duration.
import { formatGoDuration } from '../options/durations';
import { type BaseScenarioConfig, describeFacts, type FieldReader, readBase } from './base';

export interface ConstantVusConfig extends BaseScenarioConfig {
  executor: 'constant-vus';
  vus: number;
  duration: number;
}

export function parseConstantVus(name: string, r: FieldReader): ConstantVusConfig {
  const base = readBase(name, 'constant-vus', r);
  const vus = r.int('vus', 1);
  const duration = r.duration('duration', undefined);
  if (vus <= 0) r.problem(`vus must be more than 0, got ${vus}`);
  if (r.has('duration') && duration < 1000)
    r.problem(`duration must be at least 1s, got ${formatGoDuration(duration)}`);
  return { ...base, executor: 'constant-vus', vus, duration };
}

export function describeConstantVus(c: ConstantVusConfig): string {
  return `${c.vus} looping VUs for ${formatGoDuration(c.duration)}${describeFacts(c, [])}`;
}
