// How both arrival-rate executors run (open model): the main thread hands pre-allocated VUs one plan and adds VUs
// (up to maxVUs) when they ask; each free VU claims the next start number, computes its intended time from the
// schedule (./arrival-schedule.ts) and sleeps until then. There is no central clock and no message per start.
import { nowMs, SC_DROPPED, SC_NEXT_ITER, SC_PENDING, SC_STARTED, SC_STOP, SC_VUS } from '../control-block';
import { type ArrivalSchedule, arrivalOffsetOf } from './arrival-schedule';
import type { BaseScenarioConfig } from './base';
import { partOf, type ScenarioDriver, type VuLoop } from './executor';
import type { ExecutionTuple } from './segments';
import { type Stripe, stripeItem, WHOLE } from './stripe';

export interface ArrivalPlan {
  schedule: ArrivalSchedule;
  /** Epoch ms the schedule's offset 0 maps to. */
  start: number;
  /** Epoch ms from which this VU counts as free (pre-allocated VUs: the schedule start). */
  freeSince: number;
  /**
   * Pre-allocated VUs: the claim number of this VU's first start (the i-th VU takes the i-th start), or -1 for a VU
   * added later, which claims from the shared counter like every next start.
   */
  firstClaim: number;
  maxVUs: number;
  /** dropped_iterations tags: run tags + scenario. */
  droppedTags: Record<string, string>;
  /** The test-wide start numbers this instance takes (the whole schedule without segments). */
  starts: Stripe;
}

export interface ArrivalPool {
  preAllocatedVUs: number;
  maxVUs: number;
  /** Set under execution segments: the start numbers of the whole test's schedule this instance takes. */
  starts?: Stripe;
  /** Set under execution segments: the fraction of the rate this instance runs, for its description. */
  rateShare?: number;
}

/**
 * An arrival-rate scenario's part under execution segments. Its VUs scale with the instance's share; its starts are
 * split among the instances that hold VUs (k6 splits them by maxVUs), and each instance runs the whole schedule's
 * starts it owns, at their test-wide times, so the instances' starts together are exactly the unsegmented schedule.
 */
export function segmentArrival<C extends BaseScenarioConfig & ArrivalPool>(
  c: C,
  t: ExecutionTuple,
  rateShare: (split: ExecutionTuple, maxVUs: number) => number,
): C | undefined {
  const maxVUs = t.scale(c.maxVUs);
  const split = t.forValue(c.maxVUs);
  if (!split || maxVUs === 0) return undefined;
  return {
    ...c,
    preAllocatedVUs: t.scale(c.preAllocatedVUs),
    maxVUs,
    starts: split.stripe(),
    rateShare: rateShare(split, maxVUs),
    part: partOf(t, split),
  };
}

export async function runArrival(
  c: ArrivalSchedule & ArrivalPool,
  regular: number,
  s: ScenarioDriver,
): Promise<void> {
  const block = s.block;
  const vus = await s.acquire(c.preAllocatedVUs, true);
  Atomics.store(block, SC_VUS, vus.length);
  const start = nowMs();
  s.startedAt = start;
  const plan = (freeSince: number, firstClaim = -1): ArrivalPlan => ({
    schedule: c,
    start,
    freeSince,
    firstClaim,
    maxVUs: c.maxVUs,
    droppedTags: s.droppedTags,
    starts: c.starts ?? WHOLE,
  });
  // Pre-allocated VUs count as free from the schedule start, even if their activation message lands later, and each
  // holds one of the first starts before any VU can claim: a VU whose first iteration ended before the others'
  // activations were read would otherwise claim their starts, already due, and drop them with those VUs still idle.
  const first = Atomics.add(block, SC_NEXT_ITER, vus.length);
  vus.forEach((vu, i) => void s.activate(vu, plan(start, first + i)));
  s.started();
  // VUs ask for more VUs (up to maxVUs) by raising PENDING when they drop a start, and wake this thread with a
  // notify on DROPPED, which they count after raising PENDING; initialise them here. The thread sleeps in
  // Atomics.waitAsync on DROPPED meanwhile: a drop counted after its last look makes the wait return at once, so no
  // request (nor the first drop at maxVUs, which only notifies) is missed between that look and the wait. A timer
  // that looked every 50 ms woke the main thread 20 times a second in every arrival-rate test.
  let inFlight = 0;
  let maxWarned = false;
  let ended = false;
  const grow = () => {
    const pending = Atomics.load(block, SC_PENDING);
    for (; inFlight < pending; inFlight++) {
      s.acquire(1)
        .then(([vu]) => {
          if (!vu || Atomics.load(block, SC_STOP) !== 0) return;
          Atomics.add(block, SC_VUS, 1);
          void s.activate(vu, plan(nowMs()));
        })
        .catch((e: Error) => s.warn(`could not initialize an extra VU: ${e.message}`))
        .finally(() => {
          inFlight--;
          Atomics.sub(block, SC_PENDING, 1);
        });
    }
    if (!maxWarned && Atomics.load(block, SC_DROPPED) > 0 && Atomics.load(block, SC_VUS) >= c.maxVUs) {
      maxWarned = true;
      s.warn(`Insufficient VUs, reached ${c.maxVUs} active VUs and cannot initialize more`);
    }
  };
  const watch = async () => {
    while (!ended) {
      const seen = Atomics.load(block, SC_DROPPED);
      grow();
      const wait = Atomics.waitAsync(block, SC_DROPPED, seen);
      if (wait.async) await wait.value;
    }
  };
  void watch();
  try {
    await s.delay(regular);
  } finally {
    ended = true;
    Atomics.notify(block, SC_DROPPED);
  }
}

/**
 * A VU's side: claim a start number, sleep until its time, run it. A start whose time passed before this VU became
 * free had no free VU at its due time: it is dropped (k6's rule), never retried.
 */
export async function arrivalVu(plan: ArrivalPlan, loop: VuLoop): Promise<number> {
  const block = loop.block;
  const offsetOf = arrivalOffsetOf(plan.schedule);
  let freeSince = plan.freeSince;
  let claim = plan.firstClaim;
  let atMax = false;
  while (!loop.scenarioStopped()) {
    const number = claim >= 0 ? claim : Atomics.add(block, SC_NEXT_ITER, 1);
    claim = -1;
    const offset = offsetOf(stripeItem(plan.starts, number));
    if (offset === Number.POSITIVE_INFINITY) break;
    const due = plan.start + offset;
    if (due < freeSince) {
      // A VU more is asked for before the drop is counted: the main thread waits on DROPPED (runArrival).
      const more = Atomics.load(block, SC_VUS) + Atomics.load(block, SC_PENDING) < plan.maxVUs;
      if (more) Atomics.add(block, SC_PENDING, 1);
      // Once per VU at maxVUs, so that the main thread warns that it is reached.
      const firstAtMax = !more && !atMax && Atomics.load(block, SC_VUS) >= plan.maxVUs;
      if (firstAtMax) atMax = true;
      Atomics.add(block, SC_DROPPED, 1);
      loop.dropped(plan.droppedTags);
      if (more || firstAtMax) Atomics.notify(block, SC_DROPPED);
      continue;
    }
    const waited = loop.waitUntil(due);
    if (waited) await waited;
    if (loop.scenarioStopped()) break;
    loop.startLag(due);
    // Iterations are numbered as they start (a dropped start takes no number), as k6 numbers them.
    const r = loop.iterate(Atomics.add(block, SC_STARTED, 1));
    if (r instanceof Promise) await r;
    // Free from the iteration's end, as k6 returns the VU to the pool then: the samples, flushes and thread
    // wake-ups between that instant and this VU's next claim must not turn a start it could take into a drop.
    freeSince = loop.lastIterationEnd();
  }
  return 0;
}
