// A VU's work inside one scenario activation: the executor-specific loop that claims iterations through the
// scenario's shared block (no message per iteration) until the scenario stops or the VU is told to leave.
import {
  nowMs,
  SC_BUSY,
  SC_CLAIMED,
  SC_IDLE,
  SC_NEXT_ITER,
  SC_RELEASED,
  SC_STOP,
  SIGNAL_STOP_NEW,
} from '../control-block';
import { runIteration } from './iteration';
import type { Realm } from './realm';
import type { VuRuntime } from './runtime';
import type { ActivateMessage } from './wire';

const setupCache = new Map<string, unknown>();

/** Setup data is parsed once per VU (at its first use) and the same object is passed to later iterations. */
function setupDataFor(json: string | undefined): unknown {
  if (json === undefined) return undefined;
  if (!setupCache.has(json)) setupCache.set(json, JSON.parse(json));
  return setupCache.get(json);
}

export async function runActivation(rt: VuRuntime, realm: Realm, msg: ActivateMessage): Promise<number> {
  const { block, mode, scenario } = msg;
  rt.scenario = scenario;
  rt.userTags = {};
  rt.userMetadata = {};
  rt.iterationInScenario = -1;
  rt.invalidateTags();
  for (const k of Object.keys(realm.env)) delete realm.env[k];
  Object.assign(realm.env, rt.data.env, scenario.env);
  const fn = realm.module[scenario.exec] as (data: unknown) => unknown;
  const ctx = { fn, data: setupDataFor(msg.setupData), block };
  const stopped = () => Atomics.load(block, SC_STOP) !== 0 || Atomics.load(rt.signal, SIGNAL_STOP_NEW) !== 0;

  const one = (index: number) => {
    rt.iterationInInstance = index;
    Atomics.add(block, SC_BUSY, 1);
    const r = runIteration(rt, ctx);
    if (r instanceof Promise) return r.finally(() => Atomics.sub(block, SC_BUSY, 1));
    Atomics.sub(block, SC_BUSY, 1);
    return r;
  };

  let notStarted = 0;
  switch (mode.kind) {
    case 'loop':
      while (!stopped()) {
        const r = one(Atomics.add(block, SC_NEXT_ITER, 1));
        if (r instanceof Promise) await r;
      }
      break;
    case 'shared':
      while (!stopped()) {
        const index = Atomics.add(block, SC_NEXT_ITER, 1);
        if (index >= mode.iterations) break;
        const r = one(index);
        if (r instanceof Promise) await r;
      }
      break;
    case 'per-vu':
      for (let i = 0; i < mode.iterations; i++) {
        if (stopped()) {
          notStarted = mode.iterations - i;
          break;
        }
        const r = one(Atomics.add(block, SC_NEXT_ITER, 1));
        if (r instanceof Promise) await r;
      }
      break;
    case 'arrival': {
      const ring = mode.ring;
      const mask = ring.length - 1;
      const lagTags = rt.tags();
      Atomics.add(block, SC_IDLE, 1);
      while (Atomics.load(block, SC_STOP) === 0) {
        const claimed = Atomics.load(block, SC_CLAIMED);
        const released = Atomics.load(block, SC_RELEASED);
        if (claimed < released) {
          if (Atomics.compareExchange(block, SC_CLAIMED, claimed, claimed + 1) !== claimed) continue;
          const due = ring[claimed & mask];
          const now = nowMs();
          rt.emit([
            { metric: 'bench_iteration_start_lag', time: now, value: Math.max(0, now - due), tags: lagTags },
          ]);
          const r = one(claimed);
          if (r instanceof Promise) await r;
          Atomics.add(block, SC_IDLE, 1);
          continue;
        }
        rt.flushIfStale(0);
        Atomics.wait(block, SC_RELEASED, released, 200);
      }
      break;
    }
  }
  rt.encoder.flush();
  return notStarted;
}
