// The sharded id map behaves like one Map: numbers (also negative) and strings, size, deletes, all values.
import { describe, expect, it } from 'vitest';
import { IdMap } from './id-map';

describe('IdMap', () => {
  it('keeps numeric and string ids apart and counts them once', () => {
    const map = new IdMap();
    map.set(1, 10);
    map.set('1', 11);
    map.set(-7, 12);
    map.set(2 ** 52 + 3, 13);
    map.set(1, 14);
    expect(map.size).toBe(4);
    expect([map.get(1), map.get('1'), map.get(-7), map.get(2 ** 52 + 3), map.get(2)]).toEqual([
      14,
      11,
      12,
      13,
      undefined,
    ]);
    expect(map.delete('1')).toBe(true);
    expect(map.delete('1')).toBe(false);
    expect(map.size).toBe(3);
    expect([...map.values()].sort((a, b) => a - b)).toEqual([12, 13, 14]);
  });
});

describe('IdMap dense table', () => {
  it('agrees with a plain Map over mixed dense, sparse and string ids, updates and deletes', () => {
    const map = new IdMap();
    const reference = new Map<number | string, number>();
    let seed = 12345;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let step = 0; step < 200_000; step++) {
      const pick = random();
      // Mostly small dense ids, some far-apart ones (too sparse for chunks), negatives, huge numbers and strings.
      const id =
        pick < 0.7
          ? Math.floor(random() * 150_000)
          : pick < 0.8
            ? Math.floor(random() * 2 ** 31)
            : pick < 0.85
              ? -Math.floor(random() * 1000)
              : pick < 0.9
                ? 2 ** 40 + Math.floor(random() * 100)
                : `s${Math.floor(random() * 5000)}`;
      const op = random();
      if (op < 0.75) {
        map.set(id, step);
        reference.set(id, step);
      } else if (op < 0.9) {
        expect(map.delete(id)).toBe(reference.delete(id));
      } else expect(map.get(id)).toBe(reference.get(id));
    }
    expect(map.size).toBe(reference.size);
    for (const [id, row] of reference) expect(map.get(id)).toBe(row);
    expect([...map.values()].sort((a, b) => a - b)).toEqual([...reference.values()].sort((a, b) => a - b));
  });

  it('keeps row 0 and ids at chunk edges', () => {
    const map = new IdMap();
    for (const id of [0, 65_535, 65_536, 2 ** 31 - 1]) map.set(id, 0);
    expect([0, 65_535, 65_536, 2 ** 31 - 1, 1].map((id) => map.get(id))).toEqual([0, 0, 0, 0, undefined]);
    expect(map.size).toBe(4);
    expect(map.delete(65_536)).toBe(true);
    expect(map.get(65_536)).toBeUndefined();
    expect(map.size).toBe(3);
  });
});
