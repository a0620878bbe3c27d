// The value design: for a target share of rows, the filter on experiment 2's attribute that matches exactly that
// many rows, or why none can. One value (`Eq`) when one value's rows are the target (1% at cardinality 100), else a
// range of the lowest value indexes (`Lt`), which covers a set of whole values (1% at 10k values is the 100 lowest).
// Selectivity is always "share of rows matching" (not "share filtered out"). Pure.
import type { FilterLeaf } from '../turbopuffer-wire';
import { type AttributeColumn, rowsBelow, rowsWithValue, wireValue } from './attribute-values';

/** The study's filters: one leaf, Eq or Lt. */
export type LeafFilter = FilterLeaf<'Eq' | 'Lt', number | string>;

export type FilterDesign =
  | { fraction: number; reachable: true; filter: LeafFilter; matches: number }
  | { fraction: number; reachable: false; reason: string };

/** The filter matching exactly `fraction` of the rows, preferring one value (Eq) over a range (Lt). */
export function filterFor(attr: string, c: AttributeColumn, fraction: number): FilterDesign {
  const exact = fraction * c.rows;
  const target = Math.round(exact);
  if (!(fraction > 0 && fraction <= 1) || Math.abs(exact - target) > 1e-6 * Math.max(1, exact))
    return {
      fraction,
      reachable: false,
      reason: `${formatPercentTag(fraction)}% of ${c.rows} rows is not a whole number of rows`,
    };
  // Value index 0 holds the most rows (the remainder goes to the lowest indexes): it is the one Eq candidate.
  if (target < c.rows && rowsWithValue(c, 0) === target)
    return { fraction, reachable: true, filter: [attr, 'Eq', wireValue(c, 0)], matches: target };
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
      reason: `${c.cardinality} values cover no set of exactly ${target} rows (nearest: ${rowsBelow(c, lo - 1)} or ${rowsBelow(c, lo)})`,
    };
  return { fraction, reachable: true, filter: [attr, 'Lt', wireValue(c, lo)], matches: target };
}

/**
 * A fraction as a percentage tag with at most 4 significant digits and no trailing zeros: 0.001 -> "0.1",
 * 0.5 -> "50", 1 -> "100", 1/3 -> "33.33". Tags name cells, so the same fraction always gives the same text.
 */
export function formatPercentTag(fraction: number): string {
  return String(Number((fraction * 100).toPrecision(4)));
}
