// Row bitsets against a Set-based model on random sets and ranges.
import { describe, expect, it } from 'vitest';
import { countRows, forEachRow, hasBit } from './bitset';
import { seededRandom } from './random';

describe('row bitsets', () => {
  const random = seededRandom(11);
  const size = 1000;
  const set = new Uint32Array(Math.ceil(size / 32));
  const minus = new Uint32Array(Math.ceil(size / 32));
  const inSet = new Set<number>();
  const inMinus = new Set<number>();
  for (let r = 0; r < size; r++) {
    if (random() < 0.3) {
      set[r >>> 5] |= 1 << (r & 31);
      inSet.add(r);
    }
    if (random() < 0.2) {
      minus[r >>> 5] |= 1 << (r & 31);
      inMinus.add(r);
    }
  }

  it('counts and lists rows of any sub-range, with and without a set subtracted', () => {
    for (let t = 0; t < 200; t++) {
      const a = Math.floor(random() * size);
      const b = Math.floor(random() * size);
      const [from, to] = a < b ? [a, b] : [b, a];
      const want = [...inSet].filter((r) => r >= from && r < to).sort((x, y) => x - y);
      const wantMinus = want.filter((r) => !inMinus.has(r));
      expect(countRows(set, from, to)).toBe(want.length);
      expect(countRows(set, from, to, minus)).toBe(wantMinus.length);
      const seen: number[] = [];
      forEachRow(set, from, to, minus, (r) => seen.push(r));
      expect(seen).toEqual(wantMinus);
    }
  });

  it('treats rows past the end of the array as clear', () => {
    const small = new Uint32Array([0xffffffff]);
    expect(countRows(small, 0, 100)).toBe(32);
    expect(hasBit(small, 31)).toBe(true);
    expect(hasBit(small, 32)).toBe(false);
    expect(countRows(small, 5, 5)).toBe(0);
  });
});
