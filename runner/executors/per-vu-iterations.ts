// per-vu-iterations: every VU runs its own fixed number of iterations.

import { formatGoDuration } from '../../core/durations';
import { SC_NEXT_ITER } from '../control-block';
import { type BaseScenarioConfig, describeFacts, type FieldReader, readBase } from './base';
import { type Executor, runFixedVus, segmentVus } from './executor';

export interface PerVuIterationsConfig extends BaseScenarioConfig {
  executor: 'per-vu-iterations';
  vus: number;
  /** Iterations per VU. */
  iterations: number;
  maxDuration: number;
}

function parsePerVuIterations(name: string, r: FieldReader): PerVuIterationsConfig {
  const base = readBase(name, 'per-vu-iterations', r);
  const vus = r.int('vus', 1);
  const iterations = r.int('iterations', 1);
  const maxDuration = r.duration('maxDuration', 600_000);
  if (vus <= 0) r.invalid('vus', `vus must be more than 0, got ${vus}`);
  if (iterations <= 0) r.invalid('iterations', `iterations must be more than 0, got ${iterations}`);
  if (maxDuration < 1000)
    r.invalid('maxDuration', `maxDuration must be at least 1s, got ${formatGoDuration(maxDuration)}`);
  return { ...base, executor: 'per-vu-iterations', vus, iterations, maxDuration };
}

export const perVuIterations: Executor<PerVuIterationsConfig, { iterations: number }> = {
  parse: parsePerVuIterations,
  segment: segmentVus,
  describe: (c) =>
    `${c.iterations} iterations for each of ${c.vus} VUs${describeFacts(c, [`maxDuration: ${formatGoDuration(c.maxDuration)}`])}`,
  plannedVUs: (c) => c.vus,
  maxVUs: (c) => c.vus,
  regularDuration: (c) => c.maxDuration,
  run: (c, s) => runFixedVus(s, c.vus, { iterations: c.iterations }, c.maxDuration),
  // Each VU that ended early reported the iterations it never started: one dropped_iterations sample each.
  unstarted: (_c, _block, notStarted) => notStarted,
  async vu(plan, loop) {
    for (let i = 0; i < plan.iterations; i++) {
      if (loop.stopped()) return plan.iterations - i;
      const r = loop.iterate(Atomics.add(loop.block, SC_NEXT_ITER, 1));
      if (r instanceof Promise) await r;
    }
    return 0;
  },
};
