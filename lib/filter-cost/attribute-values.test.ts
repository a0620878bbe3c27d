import { describe, expect, it } from 'vitest';
import {
  attributeColumn,
  columnValues,
  rowsBelow,
  rowsWithValue,
  valueBytes,
  valueIndex,
  wireValue,
} from './attribute-values';

function counts(rows: number, cardinality: number, seed: number): number[] {
  const c = attributeColumn('int', rows, cardinality, seed);
  const out = new Array<number>(cardinality).fill(0);
  for (let id = 0; id < rows; id++) out[valueIndex(c, id)]++;
  return out;
}

describe('attributeColumn', () => {
  it.each([
    [1000, 2],
    [1000, 100],
    [1000, 1000],
    [1001, 7],
    [999, 1],
  ])(
    '%i rows with cardinality %i: every value occurs floor or floor+1 times, as rowsWithValue says',
    (rows, card) => {
      const observed = counts(rows, card, 42);
      const c = attributeColumn('int', rows, card, 42);
      expect(observed.filter((n) => n > 0)).toHaveLength(card);
      expect(observed).toEqual(observed.map((_, v) => rowsWithValue(c, v)));
      expect(observed.reduce((a, b) => a + b, 0)).toBe(rows);
    },
  );

  it('is a bijection when the cardinality equals the rows (unique values)', () => {
    const c = attributeColumn('int', 4096, 4096, 7);
    const seen = new Set<number>();
    for (let id = 0; id < 4096; id++) seen.add(valueIndex(c, id));
    expect(seen.size).toBe(4096);
  });

  it('depends on the seed and nothing else', () => {
    const a = columnValues(attributeColumn('int', 500, 10, 1), 0, 500);
    expect(columnValues(attributeColumn('int', 500, 10, 1), 0, 500)).toEqual(a);
    expect(columnValues(attributeColumn('int', 500, 10, 2), 0, 500)).not.toEqual(a);
  });

  it('spreads values over consecutive ids instead of repeating id order', () => {
    const values = columnValues(attributeColumn('int', 10000, 10000, 3), 0, 10) as number[];
    expect(values).not.toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('refuses a cardinality above the rows and impossible row counts', () => {
    expect(() => attributeColumn('int', 100, 101, 1)).toThrow(
      'cardinality must be a whole number in 1..rows (100)',
    );
    expect(() => attributeColumn('int', 0, 1, 1)).toThrow('rows must be a whole number');
    expect(() => attributeColumn('int', 2 ** 27, 2, 1)).toThrow('rows must be a whole number');
  });
});

describe('wire values', () => {
  it('writes ints as the index and strings as fixed-width v-prefixed digits (8 bytes like an int)', () => {
    const s = attributeColumn('string', 100, 100, 1);
    expect(wireValue(s, 0)).toBe('v0000000');
    expect(wireValue(s, 42)).toBe('v0000042');
    expect(wireValue(s, 100)).toBe('v0000100');
    expect(valueBytes(s)).toBe(8);
    expect(wireValue(attributeColumn('int', 100, 100, 1), 42)).toBe(42);
    expect(valueBytes({ type: 'int', cardinality: 10 })).toBe(8);
  });

  it('widens strings past 10^7 values so the exclusive bound still sorts last', () => {
    const s = attributeColumn('string', 2 ** 24, 2 ** 24, 1);
    expect(wireValue(s, 2 ** 24)).toBe('v16777216');
    expect(String(wireValue(s, 9)) < String(wireValue(s, 2 ** 24))).toBe(true);
    expect(valueBytes(s)).toBe(9);
  });

  it('keeps lexicographic order equal to index order', () => {
    const s = attributeColumn('string', 20000, 20000, 1);
    const values = [0, 9, 10, 99, 100, 19999, 20000].map((i) => String(wireValue(s, i)));
    expect([...values].sort()).toEqual(values);
  });
});

describe('rowsBelow', () => {
  it('counts the rows a Lt filter on value index `bound` matches', () => {
    const c = attributeColumn('int', 1001, 7, 5);
    const observed = counts(1001, 7, 5);
    for (let t = 0; t <= 7; t++)
      expect(rowsBelow(c, t)).toBe(observed.slice(0, t).reduce((a, b) => a + b, 0));
    expect(rowsBelow(c, 99)).toBe(1001);
  });
});
