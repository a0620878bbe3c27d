// Row ranges to segment parts, and the even split of parts across threads.
import { describe, expect, it } from 'vitest';
import { rangeParts, splitByCost } from './plan';
import type { ScanPart } from './tasks';

const segments = [
  { id: 1, start: 0, capacity: 4 },
  { id: 2, start: 4, capacity: 8 },
  { id: 3, start: 12, capacity: 16 },
];

describe('rangeParts', () => {
  it('maps a global row range to local ranges of the segments it touches', () => {
    expect(rangeParts(segments, 2, 14)).toEqual([
      { seg: 1, rowBase: 0, from: 2, to: 4 },
      { seg: 2, rowBase: 4, from: 0, to: 8 },
      { seg: 3, rowBase: 12, from: 0, to: 2 },
    ]);
    expect(rangeParts(segments, 5, 5)).toEqual([]);
  });
});

describe('splitByCost', () => {
  const rows = (p: ScanPart) => p.to - p.from;
  it('cuts contiguous parts into groups of equal rows covering every row once', () => {
    const groups = splitByCost(rangeParts(segments, 0, 28), 2, rows, () => true);
    expect(groups.map((g) => g.reduce((s, p) => s + rows(p), 0))).toEqual([14, 14]);
    const covered = groups
      .flat()
      .flatMap((p) => Array.from({ length: rows(p) }, (_, i) => p.rowBase + p.from + i));
    expect(covered).toEqual(Array.from({ length: 28 }, (_, i) => i));
  });

  it('keeps unsplittable parts whole', () => {
    const groups = splitByCost(rangeParts(segments, 0, 28), 2, rows, () => false);
    expect(groups.flat().map((p) => p.seg)).toEqual([1, 2, 3]);
    expect(groups.length).toBe(2);
  });

  it('returns one group when asked for one, none for no parts', () => {
    expect(splitByCost(rangeParts(segments, 0, 28), 1, rows, () => true)).toHaveLength(1);
    expect(splitByCost([], 2, rows, () => true)).toEqual([]);
  });
});
