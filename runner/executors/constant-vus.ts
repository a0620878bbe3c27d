// constant-vus: a fixed number of VUs loop back-to-back for a duration.

import { formatGoDuration } from '../../core/durations';
import { SC_NEXT_ITER } from '../control-block';
import { type BaseScenarioConfig, describeFacts, type FieldReader, readBase } from './base';
import { type Executor, runFixedVus, segmentVus, type VuLoop } from './executor';

export interface ConstantVusConfig extends BaseScenarioConfig {
  executor: 'constant-vus';
  vus: number;
  duration: number;
}

function parseConstantVus(name: string, r: FieldReader): ConstantVusConfig {
  const base = readBase(name, 'constant-vus', r);
  const vus = r.int('vus', 1);
  const duration = r.duration('duration', undefined);
  if (vus <= 0) r.invalid('vus', `vus must be more than 0, got ${vus}`);
  if (duration < 1000)
    r.invalid('duration', `duration must be at least 1s, got ${formatGoDuration(duration)}`);
  return { ...base, executor: 'constant-vus', vus, duration };
}

/** The VU side of the looping executors (constant-vus, ramping-vus): iterate until stopped or told to leave. */
export async function loopUntilStopped(loop: VuLoop): Promise<number> {
  while (!loop.stopped()) {
    const r = loop.iterate(Atomics.add(loop.block, SC_NEXT_ITER, 1));
    if (r instanceof Promise) await r;
  }
  return 0;
}

export const constantVus: Executor<ConstantVusConfig, null> = {
  parse: parseConstantVus,
  segment: segmentVus,
  describe: (c) => `${c.vus} looping VUs for ${formatGoDuration(c.duration)}${describeFacts(c, [])}`,
  plannedVUs: (c) => c.vus,
  maxVUs: (c) => c.vus,
  regularDuration: (c) => c.duration,
  run: (c, s) => runFixedVus(s, c.vus, null, c.duration),
  vu: (_plan, loop) => loopUntilStopped(loop),
};
