// A VU's work inside one scenario activation: what every executor shares (scenario env and tags, setup data, the
// iteration wrapper, waits that serve a hosted VU's thread) around the executor's own loop (executors/), which
// claims iterations through the scenario's shared block (no message per iteration).

import { setImmediate as nextTurn } from 'node:timers/promises';
import { nowMs, SC_BUSY, SC_STOP, SIGNAL_STOP_NEW } from '../control-block';
import type { VuLoop } from '../executors/executor';
import { executorNamed } from '../executors/index';
import { stripeItem } from '../executors/stripe';
import { threadStarts } from './hosted-starts';
import { runIteration } from './iteration';
import type { Realm } from './realm';
import type { VuRuntime } from './runtime';
import type { ActivateMessage } from './wire';

const setupCache = new Map<string, unknown>();

/** Longest idle wait while samples are buffered, so they reach the main thread within about 100 ms. */
const FLUSH_WAIT_MS = 50;

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
  // A start already due still gives the thread's other VUs and its sockets a turn (see `one` in runActivation).
  if (now >= due) return nextTurn();
  return threadStarts().wait(due, block);
}

/** Setup data is parsed once per VU (at its first use) and the same object is passed to later iterations. */
function setupDataFor(json: string | undefined): unknown {
  if (json === undefined) return undefined;
  if (!setupCache.has(json)) setupCache.set(json, JSON.parse(json));
  return setupCache.get(json);
}

export async function runActivation(rt: VuRuntime, realm: Realm, msg: ActivateMessage): Promise<number> {
  const { block, scenario } = msg;
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

  const executor = executorNamed(scenario.executor);
  if (!executor) throw new Error(`unknown executor ${scenario.executor}`);
  const iterations = scenario.iterations;
  // A hosted VU gives the thread's other VUs and its sockets a turn after every iteration, even one that finished
  // in microtasks: here, or in the wait before its next start (waitUntil) when its executor waits before each one.
  const yieldAfter = rt.hosted && executor.waitsBeforeEachIteration !== true;
  const one = (index: number) => {
    rt.iterationInInstance = index;
    rt.iterationInTest = iterations ? stripeItem(iterations, index) : index;
    Atomics.add(block, SC_BUSY, 1);
    const r = runIteration(rt, ctx);
    if (yieldAfter)
      return Promise.resolve(r)
        .finally(() => Atomics.sub(block, SC_BUSY, 1))
        .then(nextTurn);
    if (r instanceof Promise) return r.finally(() => Atomics.sub(block, SC_BUSY, 1));
    Atomics.sub(block, SC_BUSY, 1);
    return r;
  };

  let lagTags: Readonly<Record<string, string>> | undefined;
  const loop: VuLoop = {
    block,
    scenarioStopped: () => Atomics.load(block, SC_STOP) !== 0,
    stopped,
    iterate: one,
    waitUntil: (due) => waitUntil(rt, block, due),
    lastIterationEnd: () => rt.lastIterationEnd,
    dropped: (tags) => rt.emit([{ metric: 'dropped_iterations', time: nowMs(), value: 1, tags }]),
    startLag: (due) => {
      lagTags ??= rt.tags();
      const now = nowMs();
      rt.emit([{ metric: 'bench_iteration_start_lag', time: now, value: now - due, tags: lagTags }]);
    },
  };
  const notStarted = await executor.vu(msg.plan, loop);
  rt.encoder.flush();
  return notStarted;
}
