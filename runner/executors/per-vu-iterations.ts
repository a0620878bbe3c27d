// per-vu-iterations: every VU runs its own fixed number of iterations.
import { formatGoDuration } from '../options/durations';
import { type BaseScenarioConfig, describeFacts, type FieldReader, readBase } from './base';

export interface PerVuIterationsConfig extends BaseScenarioConfig {
  executor: 'per-vu-iterations';
  vus: number;
  /** Iterations per VU. */
  iterations: number;
  maxDuration: number;
}

export function parsePerVuIterations(name: string, r: FieldReader): PerVuIterationsConfig {
  const base = readBase(name, 'per-vu-iterations', r);
  const vus = r.int('vus', 1);
  const iterations = r.int('iterations', 1);
  const maxDuration = r.duration('maxDuration', 600_000);
  if (vus <= 0) r.problem(`vus must be more than 0, got ${vus}`);
  if (iterations <= 0) r.problem(`iterations must be more than 0, got ${iterations}`);
  if (maxDuration < 1000) r.problem(`maxDuration must be at least 1s, got ${formatGoDuration(maxDuration)}`);
  return { ...base, executor: 'per-vu-iterations', vus, iterations, maxDuration };
}

export function describePerVuIterations(c: PerVuIterationsConfig): string {
  return `${c.iterations} iterations for each of ${c.vus} VUs${describeFacts(c, [`maxDuration: ${formatGoDuration(c.maxDuration)}`])}`;
}
