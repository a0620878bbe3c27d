import { describe, expect, it } from 'vitest';
import {
  advance,
  type Gates,
  gateHolds,
  initialState,
  type MachineState,
  phaseTag,
  type Schedule,
  scenarioDurationMs,
  slotAt,
  startRange,
  writerAction,
} from './phases';

const MiB = 2 ** 20;
const gates: Gates = { ltStartBytes: 1 * MiB, ltCapBytes: 4 * MiB, gtStartBytes: 8 * MiB };
const sched: Schedule = { warmupMs: 1000, durationMs: 5000, phaseTimeoutMs: 20000 };
const t0 = 1_700_000_000_000; // a grid tick

/** Runs the machine through readings [(time, bytes)] and returns the final state. */
function run(readings: [number, number][], until: number): MachineState {
  let state = initialState(t0);
  for (const [time, bytes] of readings)
    state = advance(state, time, { time, unindexedBytes: bytes }, sched, gates);
  return advance(state, until, undefined, sched, gates);
}

describe('gateHolds', () => {
  it.each([
    ['idle', 0, true],
    ['indexing_below_limit', 1 * MiB - 1, false],
    ['indexing_below_limit', 1 * MiB, true],
    ['indexing_below_limit', 4 * MiB, true],
    ['indexing_below_limit', 4 * MiB + 1, false],
    ['indexing_above_limit', 8 * MiB - 1, false],
    ['indexing_above_limit', 8 * MiB, true],
  ] as const)('%s with %d unindexed bytes: %s', (phase, bytes, holds) => {
    expect(gateHolds(phase, bytes, gates)).toBe(holds);
  });
});

describe('slotAt', () => {
  it('starts idle at t0: strong warm-up, strong measured window, then eventual', () => {
    const state = initialState(t0);
    expect(slotAt(state, t0, sched)).toEqual({
      phase: 'idle',
      stage: 'warmup',
      consistency: 'strong',
      window: { start: t0 + 1000, end: t0 + 6000 },
    });
    expect(slotAt(state, t0 + 1000, sched).stage).toBe('measuring');
    expect(slotAt(state, t0 + 5999, sched).consistency).toBe('strong');
    expect(slotAt(state, t0 + 6000, sched)).toEqual({
      phase: 'idle',
      stage: 'warmup',
      consistency: 'eventual',
      window: { start: t0 + 7000, end: t0 + 12000 },
    });
    expect(phaseTag(slotAt(state, t0 + 500, sched))).toBe('transition');
    expect(phaseTag(slotAt(state, t0 + 8000, sched))).toBe('idle');
  });

  it('waits for the below-limit gate once the idle cells are over', () => {
    const state = run([], t0 + 12000);
    expect(state).toMatchObject({
      phase: 1,
      waitStart: t0 + 12000,
      start: null,
      starts: [{ lo: t0, hi: t0 }],
    });
    expect(slotAt(state, t0 + 12000, sched)).toEqual({
      phase: 'indexing_below_limit',
      stage: 'waiting',
      consistency: null,
      window: null,
    });
  });
});

describe('advance', () => {
  it('starts a phase at the grid tick after the first reading inside its gate', () => {
    const state = run(
      [
        [t0 + 12_400, 0.5 * MiB],
        [t0 + 13_300, 2 * MiB],
      ],
      t0 + 13_300,
    );
    expect(state.start).toEqual({ lo: t0 + 14_000, hi: t0 + 14_000 });
    expect(slotAt(state, t0 + 13_900, sched).stage).toBe('waiting');
    expect(slotAt(state, t0 + 14_000, sched)).toMatchObject({
      phase: 'indexing_below_limit',
      stage: 'warmup',
    });
  });

  it('is exact when the previous reading failed in the tick before; a range when it saw no opening', () => {
    // Saw 0.5 MiB in tick +12, 2 MiB in tick +13: exact start at +14.
    expect(startRange(t0 + 13_300, t0 + 12_400, t0 + 12_000)).toEqual({ lo: t0 + 14_000, hi: t0 + 14_000 });
    // Last failure in tick +12, first pass in tick +16: the gate opened in one of the ticks +13..+16.
    expect(startRange(t0 + 16_300, t0 + 12_400, t0 + 12_000)).toEqual({ lo: t0 + 14_000, hi: t0 + 17_000 });
    // No reading since the wait began at +12 s: it may have opened in tick +12 already.
    expect(startRange(t0 + 16_300, null, t0 + 12_000)).toEqual({ lo: t0 + 13_000, hi: t0 + 17_000 });
  });

  it('measures whole windows from its own start when it saw the gate open up to PHASE_HOLD late', () => {
    // Polled at +12.4 s (closed) and +15.3 s (open): the gate opened in one of the ticks +13..+15, start in [+14, +16].
    const state = run(
      [
        [t0 + 12_400, 0.5 * MiB],
        [t0 + 15_300, 2 * MiB],
      ],
      t0 + 15_300,
    );
    expect(state.start).toEqual({ lo: t0 + 14_000, hi: t0 + 16_000 });
    // Strong [hi + W, hi + C) = [+17, +22), eventual [hi + C + W, hi + 2C) = [+23, +28): 5 s each, as for an exact VU.
    expect(slotAt(state, t0 + 17_000, sched)).toEqual({
      phase: 'indexing_below_limit',
      stage: 'measuring',
      consistency: 'strong',
      window: { start: t0 + 17_000, end: t0 + 22_000 },
    });
    expect(slotAt(state, t0 + 23_000, sched)).toEqual({
      phase: 'indexing_below_limit',
      stage: 'measuring',
      consistency: 'eventual',
      window: { start: t0 + 23_000, end: t0 + 28_000 },
    });
    // Held until hi + 2C + hold = +30 s; the above-limit wait begins at lo + 2C + hold = +28 s.
    expect(phaseTag(slotAt(advance(state, t0 + 29_000, undefined, sched, gates), t0 + 29_000, sched))).toBe(
      'transition',
    );
    expect(advance(state, t0 + 30_000, undefined, sched, gates)).toMatchObject({
      phase: 2,
      waitStart: t0 + 28_000,
    });
  });

  it('ends the last window by the earliest possible end of the phase, for a VU that joined late', () => {
    // A VU whose first reading (at +16.3 s) already passed the below gate: start in [+13 s, +17 s].
    const state = run([[t0 + 16_300, 2 * MiB]], t0 + 16_300);
    expect(state.start).toEqual({ lo: t0 + 13_000, hi: t0 + 17_000 });
    expect(slotAt(state, t0 + 17_500, sched)).toMatchObject({ stage: 'warmup', consistency: 'strong' });
    expect(slotAt(state, t0 + 18_000, sched)).toEqual({
      phase: 'indexing_below_limit',
      stage: 'measuring',
      consistency: 'strong',
      window: { start: t0 + 18_000, end: t0 + 23_000 },
    });
    // Eventual [hi + C + W, lo + 2C + hold) = [+24 s, +27 s): the writer may move the backlog on from +27 s.
    expect(slotAt(state, t0 + 24_500, sched)).toEqual({
      phase: 'indexing_below_limit',
      stage: 'measuring',
      consistency: 'eventual',
      window: { start: t0 + 24_000, end: t0 + 27_000 },
    });
    expect(phaseTag(slotAt(state, t0 + 27_000, sched))).toBe('transition');
    // Then the above-limit wait begins at lo + 2C + hold.
    expect(advance(state, t0 + 31_000, undefined, sched, gates)).toMatchObject({
      phase: 2,
      waitStart: t0 + 27_000,
    });
  });

  it('measures nothing when the range is wider than a cell', () => {
    const state = run([[t0 + 30_300, 2 * MiB]], t0 + 30_300);
    expect(state.start).toEqual({ lo: t0 + 13_000, hi: t0 + 31_000 });
    expect(slotAt(state, t0 + 33_000, sched)).toEqual({
      phase: 'indexing_below_limit',
      stage: 'warmup',
      consistency: 'strong',
      window: null,
    });
  });

  it('ignores readings taken before the wait began', () => {
    // A reading inside the below window during the idle cells must not start the below phase early.
    const state = run([[t0 + 11_000, 2 * MiB]], t0 + 12_500);
    expect(state).toMatchObject({ phase: 1, start: null });
  });

  it('walks through all three phases and is done after the last eventual cell', () => {
    const state = run(
      [
        [t0 + 12_100, 2 * MiB], // below starts at +13 s, ends at +25 s, held until +27 s
        [t0 + 27_300, 3 * MiB], // the above-limit wait began at +27 s; still below GT_START
        [t0 + 28_200, 9 * MiB], // above starts at +29 s, ends at +41 s, held until +43 s
      ],
      t0 + 43_000,
    );
    expect(state.starts).toEqual([
      { lo: t0, hi: t0 },
      { lo: t0 + 13_000, hi: t0 + 13_000 },
      { lo: t0 + 29_000, hi: t0 + 29_000 },
    ]);
    expect(phaseTag(slotAt(advance(state, t0 + 42_999, undefined, sched, gates), t0 + 42_999, sched))).toBe(
      'transition',
    );
    expect(slotAt(state, t0 + 43_000, sched)).toEqual({
      phase: null,
      stage: 'done',
      consistency: null,
      window: null,
    });
  });

  it('gives a phase up after PHASE_TIMEOUT and waits for the next one', () => {
    const state = run([[t0 + 20_000, 9 * MiB]], t0 + 12_000 + 20_000);
    expect(state).toMatchObject({
      phase: 2,
      waitStart: t0 + 32_000,
      start: null,
      starts: [{ lo: t0, hi: t0 }, null],
    });
    // The 9 MiB reading came before the above-limit wait began, so it does not count either.
    const later = advance(state, t0 + 32_500, { time: t0 + 32_500, unindexedBytes: 9 * MiB }, sched, gates);
    expect(later.start).toEqual({ lo: t0 + 33_000, hi: t0 + 33_000 });
  });

  it('ends within the duration bound even when every gate times out', () => {
    const end = t0 + scenarioDurationMs(sched);
    expect(slotAt(run([], end), end, sched).stage).toBe('done');
    expect(scenarioDurationMs(sched)).toBe(3 * 12_000 + 2 * (20_000 + 2_000) + 6_000);
  });
});

describe('writerAction', () => {
  const batch = 0.25 * MiB;
  const at = (phase: number, start: number | null): MachineState => ({
    phase,
    waitStart: t0,
    lastFail: null,
    start: start === null ? null : { lo: start, hi: start },
    starts: [],
  });

  it('does not write during the idle phase', () => {
    expect(writerAction(slotAt(at(0, t0), t0, sched), 0, batch, gates)).toEqual({ kind: 'wait' });
  });

  it('fills the below-limit window up to three quarters, with backpressure', () => {
    const slot = slotAt(at(1, null), t0, sched);
    expect(writerAction(slot, 0, batch, gates)).toEqual({ kind: 'write', disableBackpressure: false });
    expect(writerAction(slot, 3.25 * MiB - batch, batch, gates).kind).toBe('write');
    expect(writerAction(slot, 3.25 * MiB - batch + 1, batch, gates)).toEqual({ kind: 'wait' });
  });

  it('pushes past GT_START with disable_backpressure and holds a cushion above it', () => {
    const slot = slotAt(at(2, t0), t0 + 2000, sched);
    expect(writerAction(slot, 4 * MiB, batch, gates)).toEqual({ kind: 'write', disableBackpressure: true });
    expect(writerAction(slot, 10 * MiB - batch, batch, gates).kind).toBe('write');
    expect(writerAction(slot, 10 * MiB, batch, gates)).toEqual({ kind: 'wait' });
  });

  it('stops when every phase is over', () => {
    expect(writerAction(slotAt(at(3, null), t0, sched), 0, batch, gates)).toEqual({ kind: 'stop' });
  });
});
