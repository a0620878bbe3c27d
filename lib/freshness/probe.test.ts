import { describe, expect, it } from 'vitest';
import {
  annReadResult,
  idReadResult,
  lagErrorMs,
  PROBE_ID_BASE,
  ProbeWatch,
  probeIds,
  probeVectors,
  visibilityWindow,
} from './probe';

describe('probe ids and vectors', () => {
  it('gives each probe its own ids above every bulk id', () => {
    expect(probeIds(0, 3)).toEqual([PROBE_ID_BASE, PROBE_ID_BASE + 1, PROBE_ID_BASE + 2]);
    expect(probeIds(7, 3)[0]).toBe(PROBE_ID_BASE + 21);
  });

  it("keeps a probe's rows nearer its centre than another probe's centre", () => {
    const a = probeVectors(42, 1, 3, 64);
    const b = probeVectors(42, 2, 3, 64);
    const dist = (x: number[], y: number[]) => Math.hypot(...x.map((v, i) => v - y[i]));
    for (const row of a.rows) expect(dist(row, a.centre)).toBeLessThan(0.02);
    expect(dist(a.centre, b.centre)).toBeGreaterThan(1);
    expect(probeVectors(42, 1, 3, 64)).toEqual(a);
  });
});

describe('reading a probe', () => {
  const ids = probeIds(0, 3);

  it.each([
    [[...ids, 5], 'seen'],
    [[5, 6], 'missing'],
    [[ids[0], 5], 'partial'],
  ] as const)('by id: %j holds it as %s', (returned, result) => {
    expect(idReadResult(returned, ids)).toBe(result);
  });

  it('by ANN: seen when any row returns, with the share that did as its recall', () => {
    expect(annReadResult([ids[1], 9, 8], ids)).toEqual({ result: 'seen', recall: 1 / 3 });
    expect(annReadResult([9], ids)).toEqual({ result: 'missing', recall: 0 });
  });

  it('keeps the first result, and the lag to the first read that saw it', () => {
    const w = new ProbeWatch(1000);
    w.record('eventual_id', 1010, 'missing');
    w.record('eventual_id', 1260, 'missing');
    w.record('eventual_id', 1510, 'seen');
    w.record('eventual_id', 1760, 'seen');
    w.record('strong_id', 1005, 'refused');
    expect(w.outcome('eventual_id')).toEqual({ first: 'missing', seenAtMs: 1510, lagMs: 510, reads: 3 });
    expect(w.outcome('strong_id')).toMatchObject({ first: 'refused', seenAtMs: null, lagMs: null });
    expect(w.pending()).toEqual(['strong_id', 'strong_ann', 'eventual_ann']);
  });
});

describe('the visibility window of an eventual read', () => {
  // Indexing reaches 1,000 bytes a second from 10,000 at the ack (t = 0); the tail is 2,000 bytes.
  const readings = [0, 1000, 2000, 3000, 4000, 5000].map((t) => ({ time: t, indexedBytes: 10_000 + t }));

  it('opens when the index reaches the probe minus the tail, read by read, plus one read interval', () => {
    // The probe ends between 14,500 and 15,000: visible once the index is past 12,500..13,000.
    expect(visibilityWindow(0, 14_500, 15_000, 2000, readings, 250)).toEqual({
      earliestMs: 2000,
      latestMs: 3250,
    });
  });

  it('is open at once when the probe is inside the tail at its ack', () => {
    expect(visibilityWindow(0, 11_000, 11_500, 2000, readings, 250)).toEqual({
      earliestMs: 0,
      latestMs: 250,
    });
  });

  it('has no end while no reading reached the probe', () => {
    expect(visibilityWindow(0, 20_000, 20_000, 2000, readings, 250).latestMs).toBeNull();
  });

  it('measures how far outside the window a probe was seen', () => {
    const w = { earliestMs: 2000, latestMs: 3250 };
    expect([lagErrorMs(1500, w), lagErrorMs(2600, w), lagErrorMs(3400, w)]).toEqual([-500, 0, 150]);
  });
});
