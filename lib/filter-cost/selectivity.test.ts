import { describe, expect, it } from 'vitest';
import { type AttributeColumn, attributeColumn, columnValues } from './attribute-values';
import {
  equalityFilter,
  formatPercentTag,
  type LeafFilter,
  rangeFilter,
  sweep,
  upperHalfFilter,
} from './selectivity';

/** Rows of the column a leaf filter matches, counted by brute force over the generated values. */
function bruteForce(c: AttributeColumn, [, op, value]: LeafFilter): number {
  return columnValues(c, 0, c.rows).filter((v) =>
    op === 'Eq' ? v === value : op === 'Lt' ? v < value : v >= value,
  ).length;
}

const FRACTIONS = [0.001, 0.01, 0.1, 0.5, 1];

describe('rangeFilter', () => {
  it.each([
    ['int', 2],
    ['int', 100],
    ['string', 100],
    ['int', 1000],
    ['string', 20000],
  ] as const)(
    '%s with cardinality %i over 20,000 rows: the reachable filters match exactly',
    (type, card) => {
      const c = attributeColumn(type, 20000, card, 11);
      for (const point of sweep('attr', c, FRACTIONS)) {
        if (!point.reachable) continue;
        expect(point.matches).toBe(Math.round(point.fraction * 20000));
        expect(bruteForce(c, point.filter)).toBe(point.matches);
      }
    },
  );

  it('states which selectivities a low cardinality can reach', () => {
    const reach = (card: number) =>
      sweep('attr', attributeColumn('int', 20000, card, 1), FRACTIONS)
        .filter((p) => p.reachable)
        .map((p) => p.fraction);
    expect(reach(2)).toEqual([0.5, 1]);
    expect(reach(100)).toEqual([0.01, 0.1, 0.5, 1]);
    expect(reach(10000)).toEqual(FRACTIONS);
    expect(reach(20000)).toEqual(FRACTIONS);
  });

  it('explains an unreachable point', () => {
    expect(rangeFilter('attr', attributeColumn('int', 20000, 2, 1), 0.1)).toEqual({
      fraction: 0.1,
      reachable: false,
      reason: 'cardinality 2 has no set of values covering exactly 2000 rows (nearest: 0 or 10000)',
    });
    expect(rangeFilter('attr', attributeColumn('int', 999, 999, 1), 0.001)).toMatchObject({
      reachable: false,
      reason: '0.1% of 999 rows is not a whole number of rows',
    });
  });

  it('matches uneven value counts exactly when the cardinality does not divide the rows', () => {
    const c = attributeColumn('int', 1000, 3, 9);
    const half = rangeFilter('attr', c, 0.334);
    expect(half).toMatchObject({ reachable: true, matches: 334, filter: ['attr', 'Lt', 1] });
  });

  it('uses the exclusive upper bound for 100%, which strings order after every value', () => {
    const c = attributeColumn('string', 100, 100, 1);
    expect(rangeFilter('attr', c, 1)).toEqual({
      fraction: 1,
      reachable: true,
      filter: ['attr', 'Lt', 'v0000100'],
      matches: 100,
    });
  });
});

describe('equalityFilter and upperHalfFilter', () => {
  it.each([
    ['int', 2],
    ['string', 100],
    ['int', 1234],
    ['string', 5000],
    ['int', 1],
  ] as const)('%s with cardinality %i: the match counts are exact', (type, card) => {
    const c = attributeColumn(type, 5000, card, 3);
    const eq = equalityFilter('attr', c);
    const gte = upperHalfFilter('attr', c);
    expect(bruteForce(c, eq.filter)).toBe(eq.matches);
    expect(bruteForce(c, gte.filter)).toBe(gte.matches);
  });

  it('picks the middle value', () => {
    const c = attributeColumn('int', 5000, 100, 3);
    expect(equalityFilter('a', c)).toEqual({ filter: ['a', 'Eq', 50], matches: 50 });
    expect(upperHalfFilter('a', c)).toEqual({ filter: ['a', 'Gte', 50], matches: 2500 });
  });
});

describe('formatPercentTag', () => {
  it.each([
    [0.001, '0.1'],
    [0.01, '1'],
    [0.5, '50'],
    [1, '100'],
    [1 / 3, '33.33'],
    [1 / 1_000_000, '0.0001'],
    [5 / 50000, '0.01'],
  ])('%f -> %s', (fraction, tag) => {
    expect(formatPercentTag(fraction)).toBe(tag);
  });
});
