import { describe, expect, it } from 'vitest';
import { newInt32Block, SC_DROPPED, SC_NEXT_ITER, SCENARIO_WORDS } from '../control-block';
import { type ArrivalPlan, arrivalVu, runArrival } from './arrival-run';
import type { DrivenVu, ScenarioDriver, VuLoop } from './executor';

/** 1000 starts per second for 10 ms: start n is due n ms after the schedule start. */
const SCHEDULE = { executor: 'constant-arrival-rate', rate: 1000, timeUnit: 1000, duration: 10 } as const;

/** The plans runArrival hands `count` pre-allocated VUs, and the block they share. */
async function handOut(count: number): Promise<{ plans: ArrivalPlan[]; block: Int32Array }> {
  const block = newInt32Block(SCENARIO_WORDS);
  const plans: ArrivalPlan[] = [];
  const vus: DrivenVu[] = Array.from({ length: count }, (_, i) => ({
    vuId: i + 1,
    stopNew: () => {},
    interrupt: () => {},
  }));
  const driver = {
    block,
    startedAt: 0,
    droppedTags: { scenario: 'q' },
    acquire: async () => vus,
    activate: async (_vu: DrivenVu, plan: unknown) => {
      plans.push(plan as ArrivalPlan);
    },
    started: () => {},
    delay: async () => 'timeout' as const,
    warn: () => {},
  } as unknown as ScenarioDriver; // the fields runArrival reads
  await runArrival({ ...SCHEDULE, preAllocatedVUs: count, maxVUs: count }, SCHEDULE.duration, driver);
  return { plans, block };
}

/**
 * Runs one VU's activation on a fake clock (ms from the schedule start): each iteration lasts `iterationMs`, and the
 * activation leaves after `iterations` of them. Returns the due offsets of the starts it ran and its drops.
 */
async function runVu(plan: ArrivalPlan, block: Int32Array, iterationMs: number, iterations: number) {
  let now = 0;
  let end = 0;
  const ran: number[] = [];
  let dropped = 0;
  const loop: VuLoop = {
    block,
    scenarioStopped: () => ran.length >= iterations,
    stopped: () => ran.length >= iterations,
    iterate: () => {
      end = now + iterationMs;
    },
    waitUntil: (due) => {
      now = Math.max(now, due - plan.start);
    },
    lastIterationEnd: () => plan.start + end,
    dropped: () => {
      dropped++;
    },
    startLag: (due) => {
      ran.push(due - plan.start);
    },
  };
  await arrivalVu(plan, loop);
  return { ran, dropped };
}

describe('arrival-rate VUs', () => {
  it('pre-allocated VUs each hold one of the first starts, so a VU done first cannot drop the others', async () => {
    const { plans, block } = await handOut(3);
    expect(plans.map((p) => p.firstClaim)).toEqual([0, 1, 2]);
    expect(Atomics.load(block, SC_NEXT_ITER)).toBe(3);
    // VU 1's first iteration (start 0) ends at 1.5 ms, before VUs 2 and 3 have read their activations: it goes on to
    // start 3, not to starts 1 and 2, which are theirs (due at 1 and 2 ms, taken late by idle VUs, never dropped).
    expect(await runVu(plans[0], block, 1.5, 2)).toEqual({ ran: [0, 3], dropped: 0 });
    expect(await runVu(plans[1], block, 1.5, 1)).toEqual({ ran: [1], dropped: 0 });
    expect(await runVu(plans[2], block, 1.5, 1)).toEqual({ ran: [2], dropped: 0 });
    expect(Atomics.load(block, SC_DROPPED)).toBe(0);
  });

  it('a start due while its VU was still busy is dropped, and the VU claims the next', async () => {
    const { plans, block } = await handOut(1);
    // One VU, iterations of 1.5 ms: starts 1, 3, 5, 7 and 9 come while it is busy.
    expect(await runVu(plans[0], block, 1.5, 10)).toEqual({ ran: [0, 2, 4, 6, 8], dropped: 5 });
    expect(Atomics.load(block, SC_DROPPED)).toBe(5);
  });

  it('a VU added later claims from the shared counter', async () => {
    const { plans, block } = await handOut(2);
    const added: ArrivalPlan = { ...plans[0], firstClaim: -1 };
    expect(await runVu(added, block, 0.5, 1)).toEqual({ ran: [2], dropped: 0 });
  });
});
