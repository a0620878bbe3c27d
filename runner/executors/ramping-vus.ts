// ramping-vus: the number of looping VUs follows stages; the step rule lives in ramping-vus-schedule.ts.

import { formatGoDuration } from '../../core/durations';
import { nowMs } from '../control-block';
import { type BaseScenarioConfig, describeFacts, type FieldReader, readBase } from './base';
import { loopUntilStopped } from './constant-vus';
import { type DrivenVu, type Executor, partOf, type ScenarioDriver } from './executor';
import { rampingVusChanges, type VuCountChange } from './ramping-vus-schedule';
import { type Stage, stagesTotal } from './stages';

export interface RampingVusConfig extends BaseScenarioConfig {
  executor: 'ramping-vus';
  startVUs: number;
  stages: Stage[];
  gracefulRampDown: number;
  /**
   * Set under execution segments: this instance's VU count over time, its share of the whole test's count at every
   * instant (startVUs and the stage targets then hold the instance's shares, for display).
   */
  changes?: VuCountChange[];
}

function parseRampingVus(name: string, r: FieldReader): RampingVusConfig {
  const base = readBase(name, 'ramping-vus', r);
  const startVUs = r.int('startVUs', 1);
  const stages = r.stages('stages');
  const gracefulRampDown = r.duration('gracefulRampDown', 30_000);
  if (startVUs < 0) r.invalid('startVUs', `startVUs must not be negative, got ${startVUs}`);
  if (stages.length > 0 && startVUs === 0 && stages.every((s) => s.target === 0))
    r.invalid(['startVUs', 'stages'], 'either startVUs or one of the stage targets must be more than 0');
  return { ...base, executor: 'ramping-vus', startVUs, stages, gracefulRampDown };
}

function rampingVusMax(c: Pick<RampingVusConfig, 'startVUs' | 'stages'>): number {
  return Math.max(c.startVUs, ...c.stages.map((s) => s.target));
}

/** Follows the VU count changes: extra VUs finish their iteration (gracefulRampDown, then interrupted). */
async function run(c: RampingVusConfig, s: ScenarioDriver): Promise<void> {
  const vus = await s.acquire(rampingVusMax(c), true);
  const leaving = new Map<DrivenVu, () => void>();
  let target = 0;
  let ended = false;
  // Moves the active VU count to `count`: missing VUs are taken from those not running. A VU still finishing a
  // ramp-down cannot be taken back, so every VU that leaves tops the count up again.
  const setCount = (count: number) => {
    target = count;
    if (ended) return;
    const active = vus.filter((v) => s.isRunning(v) && !leaving.has(v));
    for (const vu of active.slice(count)) {
      vu.stopNew();
      leaving.set(
        vu,
        s.at(c.gracefulRampDown, () => {
          if (s.isRunning(vu)) vu.interrupt();
        }),
      );
    }
    let need = count - Math.min(active.length, count);
    for (const vu of vus) {
      if (need <= 0) break;
      if (!s.isRunning(vu)) {
        leaving.get(vu)?.();
        leaving.delete(vu);
        s.activate(vu, null).then(() => setCount(target));
        need--;
      }
    }
  };
  const changes = c.changes ?? rampingVusChanges(c.startVUs, c.stages);
  const ramp = changes.map((change) =>
    s.at(Math.max(0, s.startedAt + change.at - nowMs()), () => setCount(change.vus)),
  );
  s.at(1, () => s.started());
  await s.delay(stagesTotal(c.stages));
  ended = true;
  for (const cancel of ramp) cancel();
  for (const cancel of leaving.values()) cancel();
}

export const rampingVus: Executor<RampingVusConfig, null> = {
  parse: parseRampingVus,
  segment: (c, t) => {
    const changes: VuCountChange[] = [];
    for (const change of rampingVusChanges(c.startVUs, c.stages)) {
      const vus = t.scale(change.vus);
      if (changes.length === 0 || changes[changes.length - 1].vus !== vus)
        changes.push({ at: change.at, vus });
    }
    if (!changes.some((change) => change.vus > 0)) return undefined;
    return {
      ...c,
      startVUs: t.scale(c.startVUs),
      stages: c.stages.map((s) => ({ ...s, target: t.scale(s.target) })),
      changes,
      part: partOf(t),
    };
  },
  describe: (c) => {
    const facts = [`gracefulRampDown: ${formatGoDuration(c.gracefulRampDown)}`];
    return `Up to ${rampingVusMax(c)} looping VUs for ${formatGoDuration(stagesTotal(c.stages))} over ${c.stages.length} stages${describeFacts(c, facts)}`;
  },
  plannedVUs: rampingVusMax,
  maxVUs: rampingVusMax,
  regularDuration: (c) => stagesTotal(c.stages),
  run,
  vu: (_plan, loop) => loopUntilStopped(loop),
};
