// shared-iterations: a fixed number of iterations pulled from one shared counter by a pool of VUs.

import { formatGoDuration } from '../../core/durations';
import { SC_NEXT_ITER } from '../control-block';
import { type BaseScenarioConfig, describeFacts, type FieldReader, readBase } from './base';
import { type Executor, partOf, runFixedVus } from './executor';

export interface SharedIterationsConfig extends BaseScenarioConfig {
  executor: 'shared-iterations';
  vus: number;
  iterations: number;
  maxDuration: number;
}

function parseSharedIterations(name: string, r: FieldReader): SharedIterationsConfig {
  const base = readBase(name, 'shared-iterations', r);
  const vus = r.int('vus', 1);
  const iterations = r.int('iterations', 1);
  const maxDuration = r.duration('maxDuration', 600_000);
  if (vus <= 0) r.invalid('vus', `vus must be more than 0, got ${vus}`);
  if (iterations < vus)
    r.invalid(
      ['iterations', 'vus'],
      `the number of iterations (${iterations}) can't be less than the number of VUs (${vus})`,
    );
  if (maxDuration < 1000)
    r.invalid('maxDuration', `maxDuration must be at least 1s, got ${formatGoDuration(maxDuration)}`);
  return { ...base, executor: 'shared-iterations', vus, iterations, maxDuration };
}

export const sharedIterations: Executor<SharedIterationsConfig, { iterations: number }> = {
  parse: parseSharedIterations,
  // The iterations are split among the instances that hold VUs (k6's rule): one without a VU gets none.
  segment: (c, t) => {
    const vus = t.scale(c.vus);
    const split = t.forValue(c.vus);
    const iterations = split?.scale(c.iterations) ?? 0;
    if (!split || vus === 0 || iterations === 0) return undefined;
    return { ...c, vus, iterations, part: partOf(t, split) };
  },
  describe: (c) =>
    `${c.iterations} iterations shared among ${c.vus} VUs${describeFacts(c, [`maxDuration: ${formatGoDuration(c.maxDuration)}`])}`,
  plannedVUs: (c) => c.vus,
  maxVUs: (c) => c.vus,
  regularDuration: (c) => c.maxDuration,
  run: (c, s) => runFixedVus(s, c.vus, { iterations: c.iterations }, c.maxDuration),
  unstarted: (c, block) => {
    const started = Math.min(Atomics.load(block, SC_NEXT_ITER), c.iterations);
    return started < c.iterations ? [c.iterations - started] : [];
  },
  async vu(plan, loop) {
    while (!loop.stopped()) {
      const index = Atomics.add(loop.block, SC_NEXT_ITER, 1);
      if (index >= plan.iterations) break;
      const r = loop.iterate(index);
      if (r instanceof Promise) await r;
    }
    return 0;
  },
};
