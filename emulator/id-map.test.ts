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
