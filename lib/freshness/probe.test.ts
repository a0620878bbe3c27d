import { describe, expect, it } from 'vitest';
import {
  annReadResult,
  idReadResult,
  PROBE_ID_BASE,
  ProbeWatch,
  probeIds,
  probeVectors,
  visibilityError,
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
    w.record('eventual_id', 1010, 1020, 'missing');
    w.record('eventual_id', 1260, 1270, 'missing');
    w.record('eventual_id', 1510, 1520, 'seen');
    w.record('eventual_id', 1760, 1770, 'seen');
    w.record('strong_id', 1005, 1009, 'refused');
    expect(w.outcome('eventual_id')).toMatchObject({ first: 'missing', seenAtMs: 1510, lagMs: 510 });
    expect(w.outcome('eventual_id').reads).toHaveLength(3);
    expect(w.outcome('strong_id')).toMatchObject({ first: 'refused', seenAtMs: null, lagMs: null });
    expect(w.pending()).toEqual(['strong_id', 'strong_ann', 'eventual_ann']);
  });
});

describe('an eventual sighting against indexing progress', () => {
  // Indexing reaches 1,000 bytes a second from 10,000 at the ack (t = 0); the tail is 2,000 bytes; readings land
  // 10 ms into each second. The probe ends between 14,500 and 15,000: visible once the index is past
  // 12,500..13,000, i.e. from t = 2.5 s at the earliest, surely by the reading at 3.01 s.
  const progress = [0, 1, 2, 3, 4, 5].map((s) => ({ time: s * 1000 + 10, indexedBytes: 10_000 + s * 1000 }));
  const reads = (seenAt: number) =>
    [250, 750, 1250, 1750, 2250, 2750, 3250, 3750]
      .filter((t) => t <= seenAt)
      .map((t) => ({
        startMs: t,
        endMs: t + 20,
        result: t === seenAt ? ('seen' as const) : ('missing' as const),
      }));

  it('allows a log entry of slack both ways', () => {
    // With 1,000 bytes of slack the index must pass 14,000 (at 4.01 s) before a read has to see the probe.
    expect(visibilityError(reads(3750), 14_500, 15_000, 2000, progress, 1000)).toBe(0);
  });

  it('holds when the first read after the reading past the probe sees it', () => {
    expect(visibilityError(reads(3250), 14_500, 15_000, 2000, progress, 0)).toBe(0);
    expect(visibilityError(reads(2750), 14_500, 15_000, 2000, progress, 0)).toBe(0);
  });

  it('measures a sighting later than the first read that had to see it', () => {
    expect(visibilityError(reads(3750), 14_500, 15_000, 2000, progress, 0)).toBe(500);
  });

  it('measures a sighting before the probe could be visible', () => {
    // The reading at 2.01 s says the index is at 12,000, short of 12,500: a read that ended at 1.77 s saw it.
    expect(visibilityError(reads(1750), 14_500, 15_000, 2000, progress, 0)).toBe(1770 - 2010);
    // Unless a log entry's worth of slack covers it.
    expect(visibilityError(reads(1750), 14_500, 15_000, 2000, progress, 1000)).toBe(0);
  });

  it('says nothing about a probe never seen', () => {
    expect(visibilityError(reads(0), 14_500, 15_000, 2000, progress, 0)).toBe(0);
  });
});
