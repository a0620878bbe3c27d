// A VU's work inside one scenario activation: the executor-specific loop that claims iterations through the
// scenario's shared block (no message per iteration) until the scenario stops or the VU is told to leave.

import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  nowMs,
  SC_BUSY,
  SC_DROPPED,
  SC_NEXT_ITER,
  SC_PENDING,
  SC_STOP,
  SC_VUS,
  SIGNAL_STOP_NEW,
} from '../control-block';
import { arrivalOffsetOf } from '../executors/arrival-schedule';
import { StartScheduler } from './hosted-starts';
import { runIteration } from './iteration';
import type { Realm } from './realm';
import type { VuRuntime } from './runtime';
import type { ActivateMessage } from './wire';

const setupCache = new Map<string, unknown>();

/** Longest idle wait while samples are buffered, so they reach the main thread within about 100 ms. */
const FLUSH_WAIT_MS = 50;

/**
 * The starts of this thread's hosted VUs (created with the first). They share the thread's sample encoder, so the
 * first VU's flush on each scheduler turn covers them all.
 */
let hostedStarts: StartScheduler | undefined;

/**
 * Waits until `due` (epoch ms) or until the scenario's stop word is set: a thread-per-VU VU blocks on that word, a hosted
 * VU (sharing its thread) waits on the thread's StartScheduler, serving other VUs meanwhile.
 */
function waitUntil(rt: VuRuntime, block: Int32Array, due: number): void | Promise<void> {
  let now = nowMs();
  if (!rt.hosted) {
    while (now < due && Atomics.load(block, SC_STOP) === 0) {
      rt.flushIfStale();
      const wait = Math.min(due - now, rt.encoder.size > 0 ? FLUSH_WAIT_MS : 1000);
      Atomics.wait(block, SC_STOP, 0, wait);
      now = nowMs();
    }
    return;
  }
  if (now >= due) return;
  hostedStarts ??= new StartScheduler(() => rt.flushIfStale());
  return hostedStarts.wait(due, () => Atomics.load(block, SC_STOP) !== 0);
}

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
    // A hosted VU gives the thread's other VUs and its sockets a turn after every iteration, even one that finished
    // in microtasks.
    if (rt.hosted)
      return Promise.resolve(r)
        .finally(() => Atomics.sub(block, SC_BUSY, 1))
        .then(nextTurn);
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
      // Open model without a central clock: each free VU claims the next start number, computes its intended
      // time from the schedule and sleeps until then. A start whose time passed before this VU became free
      // had no free VU at its due time: it is dropped (k6's rule), never retried.
      const offsetOf = arrivalOffsetOf(mode.schedule);
      const lagTags = rt.tags();
      let freeSince = mode.freeSince;
      while (Atomics.load(block, SC_STOP) === 0) {
        const index = Atomics.add(block, SC_NEXT_ITER, 1);
        const offset = offsetOf(index);
        if (offset === Number.POSITIVE_INFINITY) break;
        const due = mode.start + offset;
        if (due < freeSince) {
          Atomics.add(block, SC_DROPPED, 1);
          rt.emit([{ metric: 'dropped_iterations', time: nowMs(), value: 1, tags: mode.droppedTags }]);
          if (Atomics.load(block, SC_VUS) + Atomics.load(block, SC_PENDING) < mode.maxVUs)
            Atomics.add(block, SC_PENDING, 1);
          continue;
        }
        const waited = waitUntil(rt, block, due);
        if (waited) await waited;
        if (Atomics.load(block, SC_STOP) !== 0) break;
        const now = nowMs();
        rt.emit([{ metric: 'bench_iteration_start_lag', time: now, value: now - due, tags: lagTags }]);
        const r = one(index);
        if (r instanceof Promise) await r;
        // Free from the iteration's end, as k6 returns the VU to the pool then: the samples, flushes and thread
        // wake-ups between that instant and this VU's next claim must not turn a start it could take into a drop.
        freeSince = rt.lastIterationEnd;
      }
      break;
    }
  }
  rt.encoder.flush();
  return notStarted;
}
