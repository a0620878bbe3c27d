import { describe, expect, it } from 'vitest';
import { type AttributeColumn, attributeColumn, columnValues } from './attribute-values';
import { filterFor, formatPercentTag, type LeafFilter } from './selectivity';

/** Rows of the column a leaf filter matches, counted by brute force over the generated values. */
function bruteForce(c: AttributeColumn, [, op, value]: LeafFilter): number {
  return columnValues(c, 0, c.rows).filter((v) => (op === 'Eq' ? v === value : v < value)).length;
}

const SWEEP = [0.001, 0.01, 0.1, 0.5, 1];

describe('filterFor: the value design', () => {
  it.each([
    ['int', 100, 'Eq', 0],
    ['string', 100, 'Eq', 'v0000000'],
    ['int', 10_000, 'Lt', 100],
    ['string', 10_000, 'Lt', 'v0000100'],
    ['int', 100_000, 'Lt', 1000],
    ['string', 100_000, 'Lt', 'v0001000'],
    ['int', 1_000_000, 'Lt', 10_000],
    ['string', 1_000_000, 'Lt', 'v0010000'],
  ] as const)('one percent of 1M rows at %s@%i: %s %s, exactly 10,000 rows', (type, card, op, value) => {
    const c = attributeColumn(type, 1_000_000, card, 7);
    const design = filterFor('attr', c, 0.01);
    expect(design).toEqual({ fraction: 0.01, reachable: true, filter: ['attr', op, value], matches: 10_000 });
    if (design.reachable) expect(bruteForce(c, design.filter)).toBe(10_000);
  });

  it('cannot reach 1% with 2 values, and says why', () => {
    expect(filterFor('attr', attributeColumn('int', 1_000_000, 2, 7), 0.01)).toEqual({
      fraction: 0.01,
      reachable: false,
      reason: '2 values cover no set of exactly 10000 rows (nearest: 0 or 500000)',
    });
  });

  it.each([
    ['int', 2],
    ['int', 100],
    ['string', 100],
    ['int', 10_000],
    ['string', 20_000],
  ] as const)('%s@%i over 20,000 rows: every reachable sweep point matches exactly', (type, card) => {
    const c = attributeColumn(type, 20_000, card, 11);
    for (const fraction of SWEEP) {
      const design = filterFor('attr', c, fraction);
      if (!design.reachable) continue;
      expect(design.matches).toBe(Math.round(fraction * 20_000));
      expect(bruteForce(c, design.filter)).toBe(design.matches);
    }
  });

  it('states which sweep points a cardinality reaches', () => {
    const reach = (card: number) =>
      SWEEP.filter((f) => filterFor('attr', attributeColumn('int', 20_000, card, 1), f).reachable);
    expect(reach(2)).toEqual([0.5, 1]);
    expect(reach(100)).toEqual([0.01, 0.1, 0.5, 1]);
    expect(reach(10_000)).toEqual(SWEEP);
  });

  it('refuses a share that is no whole number of rows', () => {
    expect(filterFor('attr', attributeColumn('int', 999, 999, 1), 0.001)).toMatchObject({
      reachable: false,
      reason: '0.1% of 999 rows is not a whole number of rows',
    });
  });
});

describe('formatPercentTag', () => {
  it('names fractions as short percentages', () => {
    expect([0.001, 0.01, 0.1, 0.5, 1, 1 / 3].map(formatPercentTag)).toEqual([
      '0.1',
      '1',
      '10',
      '50',
      '100',
      '33.33',
    ]);
  });
});
