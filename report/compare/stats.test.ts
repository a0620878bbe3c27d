import { describe, expect, it } from 'vitest';
import { fromIntervals, mannWhitneyP, nonNegative, proportions, rates, significant, welch } from './stats';

describe('the tests bench compare marks changes with', () => {
  it("Welch's t-test: difference of means, its 95 % interval and p", () => {
    // Reference values computed apart from jstat (Python: the Welch formulas, the t density integrated by
    // Simpson's rule): df 5.820, interval [0.519939, 1.480061], p 0.0023489.
    const d = welch([20.1, 19.8, 20.4, 20.0], [21.0, 21.4, 20.7, 21.2]);
    expect(d?.estimate).toBeCloseTo(1.0, 10);
    expect(d?.low).toBeCloseTo(0.519939, 5);
    expect(d?.high).toBeCloseTo(1.480061, 5);
    expect(d?.p).toBeCloseTo(0.0023489, 5);
    expect(welch([1], [2, 3])).toBeNull();
  });

  it('Mann–Whitney U with ties (normal approximation, continuity correction)', () => {
    // Reference values computed apart from jstat (Python, statistics.NormalDist).
    expect(mannWhitneyP([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])).toBeCloseTo(0.0121858, 6);
    expect(mannWhitneyP([2.5, 2.5, 2.5, 2.5, 3.5], [3.5, 3.5, 3.5, 3.5, 4.5])).toBeCloseTo(0.0209213, 6);
    expect(mannWhitneyP([1, 1, 1], [1, 1, 1])).toBe(1);
    expect(mannWhitneyP([1, 2], [3, 4, 5])).toBeNull();
  });

  it('error shares: two-proportion z-test and Wald interval', () => {
    // Reference p computed apart from jstat (Python, statistics.NormalDist): 0.00085812.
    const d = proportions(10, 200, 30, 200);
    expect(d?.estimate).toBeCloseTo(0.1, 12);
    expect(d?.p).toBeCloseTo(0.00085812, 7);
    expect(d?.low).toBeCloseTo(0.1 - 1.959964 * Math.sqrt((0.05 * 0.95 + 0.15 * 0.85) / 200), 6);
    expect(proportions(0, 100, 0, 100)).toEqual({ estimate: 0, low: 0, high: 0, p: 1 });
  });

  it('rates, and differences from two intervals', () => {
    const d = rates(200, 10, 150, 10);
    expect(d?.estimate).toBe(-5);
    expect(d?.high).toBeCloseTo(-5 + 1.959964 * Math.sqrt(350 / 100), 5);
    expect(fromIntervals(10, [9, 11], 13, [12, 14])).toEqual({ estimate: 3, low: 1, high: 5, p: null });
    expect(significant(fromIntervals(10, [9, 11], 13, [12, 14]))).toBe(true);
    expect(significant(fromIntervals(10, [9, 12], 11, [10, 13]))).toBe(false);
    expect(significant(fromIntervals(10, [null, null], 11, [null, null]))).toBeNull();
  });

  it('never lets a difference of non-negative figures fall below -A (a fall of more than 100 %)', () => {
    // A p50 of 2 ms known to [1, 30] against 3 ms known to [1, 4]: the intervals allow [-29, +3].
    const wide = fromIntervals(2, [1, 30], 3, [1, 4]);
    expect(wide).toEqual({ estimate: 1, low: -29, high: 3, p: null });
    expect(nonNegative(wide, 2)).toEqual({ estimate: 1, low: -2, high: 3, p: null });
    expect(significant(nonNegative(wide, 2))).toBe(significant(wide));
    const narrow = fromIntervals(10, [9, 11], 13, [12, 14]);
    expect(nonNegative(narrow, 10)).toBe(narrow);
  });
});
