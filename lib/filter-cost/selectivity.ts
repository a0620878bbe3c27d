// Filters on experiment 2's attribute whose match counts are known exactly: a range `Lt` matching a target
// fraction of the rows (the selectivity sweep), `Eq` on one value and `Gte` the middle value. Selectivity is always
// "fraction of rows matching" (not "fraction filtered out"). Pure.
import { type AttributeColumn, rowsBelow, rowsWithValue, wireValue } from './attribute-values';

/** A filter in turbopuffer's leaf form: [attribute, operator, value]. */
export type LeafFilter = [string, 'Eq' | 'Lt' | 'Gte', number | string];

export interface ExactFilter {
  filter: LeafFilter;
  /** Rows the filter matches. */
  matches: number;
}

export type SweepPoint =
  | ({ fraction: number; reachable: true } & ExactFilter)
  | { fraction: number; reachable: false; reason: string };

/**
 * The range filter `attr Lt v` matching exactly `fraction` of the rows, or why none exists: value indexes are
 * whole, so a column with cardinality C reaches only the fractions its cumulative value counts hit (multiples of
 * 1/C when C divides the rows).
 */
export function rangeFilter(attr: string, c: AttributeColumn, fraction: number): SweepPoint {
  const exact = fraction * c.rows;
  const target = Math.round(exact);
  if (!(fraction > 0 && fraction <= 1) || Math.abs(exact - target) > 1e-6 * Math.max(1, exact))
    return {
      fraction,
      reachable: false,
      reason: `${formatPercentTag(fraction)}% of ${c.rows} rows is not a whole number of rows`,
    };
  // rowsBelow is strictly increasing in the bound (every value occurs at least once): binary search.
  let lo = 0;
  let hi = c.cardinality;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rowsBelow(c, mid) < target) lo = mid + 1;
    else hi = mid;
  }
  if (rowsBelow(c, lo) !== target)
    return {
      fraction,
      reachable: false,
      reason: `cardinality ${c.cardinality} has no set of values covering exactly ${target} rows (nearest: ${rowsBelow(c, lo - 1)} or ${rowsBelow(c, lo)})`,
    };
  return { fraction, reachable: true, filter: [attr, 'Lt', wireValue(c, lo)], matches: target };
}

/** Every sweep fraction, reachable or not, in the order given. */
export function sweep(attr: string, c: AttributeColumn, fractions: readonly number[]): SweepPoint[] {
  return fractions.map((f) => rangeFilter(attr, c, f));
}

/** `attr Eq` the middle value index: matches that value's rows (1 / cardinality of the rows, give or take one). */
export function equalityFilter(attr: string, c: AttributeColumn): ExactFilter {
  const index = Math.floor(c.cardinality / 2);
  return { filter: [attr, 'Eq', wireValue(c, index)], matches: rowsWithValue(c, index) };
}

/** `attr Gte` the middle value index: about half of the rows (all of them when the cardinality is 1). */
export function upperHalfFilter(attr: string, c: AttributeColumn): ExactFilter {
  const index = Math.floor(c.cardinality / 2);
  return { filter: [attr, 'Gte', wireValue(c, index)], matches: c.rows - rowsBelow(c, index) };
}

/**
 * A fraction as a percentage tag with at most 4 significant digits and no trailing zeros: 0.001 -> "0.1",
 * 0.5 -> "50", 1 -> "100", 1/3 -> "33.33". Tags name cells, so the same fraction always gives the same text.
 */
export function formatPercentTag(fraction: number): string {
  return String(Number((fraction * 100).toPrecision(4)));
}
