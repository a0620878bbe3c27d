import { describe, expect, it } from 'vitest';
import {
  INSTANCE_WORDS,
  newInt32Block,
  nowMs,
  SC_DROPPED,
  SCENARIO_WORDS,
  SIGNAL_WORDS,
} from '../control-block';
import type { SampleInput } from '../metrics/sample';
import { runActivation } from './activation';
import type { Realm } from './realm';
import { VuRuntime } from './runtime';
import type { RealmData } from './wire';

function busyUntil(epochMs: number): void {
  while (nowMs() < epochMs) {
    // spin: the test needs exact "busy" windows, not sleeps
  }
}

function runtime(): VuRuntime {
  const data = {
    mode: 'vu',
    vuId: 1,
    bundleUrl: '',
    scriptDir: '',
    env: {},
    testOptions: {},
    runTags: {},
    systemTags: ['scenario'],
    minIterationDuration: 0,
    signal: newInt32Block(SIGNAL_WORDS),
    instance: newInt32Block(INSTANCE_WORDS),
    testStart: nowMs(),
    sharedArrays: {},
  } as unknown as RealmData; // httpOptions are not read by an activation
  return new VuRuntime(data);
}

/** Time between due starts. Wide, so a test thread preempted for tens of ms on a loaded machine keeps its order. */
const PERIOD_MS = 200;

/**
 * One VU on a constant-arrival-rate of 5/s for 5 periods (starts due at 0, 1, ..., 4 periods). Each iteration is busy
 * until `busyMs` after its due time; `bookkeepingMs` of work follows every iteration's end before the VU claims again.
 */
async function arrival(busyMs: number, bookkeepingMs: number) {
  const rt = runtime();
  const emitted: SampleInput[] = [];
  rt.emit = (samples) => {
    emitted.push(...samples);
    if (samples.some((s) => s.metric === 'iterations')) busyUntil(nowMs() + bookkeepingMs);
  };
  const start = nowMs() + 20;
  const duration = 5 * PERIOD_MS;
  const block = newInt32Block(SCENARIO_WORDS);
  const realm = {
    module: {
      // Busy until busyMs after this start's due time.
      default: () => busyUntil(start + Math.floor((nowMs() - start) / PERIOD_MS) * PERIOD_MS + busyMs),
    },
    env: {},
  } as unknown as Realm;
  await runActivation(rt, realm, {
    type: 'activate',
    gen: 1,
    scenario: {
      name: 'q',
      executor: 'constant-arrival-rate',
      exec: 'default',
      env: {},
      browserType: null,
      tags: {},
      startTime: start,
      duration,
    },
    block,
    plan: {
      schedule: { executor: 'constant-arrival-rate', rate: 1, timeUnit: PERIOD_MS, duration },
      start,
      freeSince: start,
      firstClaim: -1,
      maxVUs: 1,
      droppedTags: { scenario: 'q' },
      starts: { lcd: 1, positions: [0] },
    },
    setupData: undefined,
  });
  return {
    started: emitted.filter((s) => s.metric === 'iterations').length,
    dropped: Atomics.load(block, SC_DROPPED),
    droppedSamples: emitted.filter((s) => s.metric === 'dropped_iterations').length,
  };
}

describe('arrival-rate activation', () => {
  it('a VU whose iteration ended before a due start takes it, however long its bookkeeping after the end took', async () => {
    // Iterations end 0.4 periods after their due time, 0.6 before the next; 0.4 periods of bookkeeping follow each.
    expect(await arrival(0.4 * PERIOD_MS, 0.4 * PERIOD_MS)).toEqual({
      started: 5,
      dropped: 0,
      droppedSamples: 0,
    });
  });

  it('a start due while the only VU is inside an iteration is dropped (one sample each), never retried', async () => {
    // Iterations last 1.5 periods: the starts due at periods 1 and 3 find the VU busy.
    expect(await arrival(1.5 * PERIOD_MS, 0)).toEqual({ started: 3, dropped: 2, droppedSamples: 2 });
  });
});
