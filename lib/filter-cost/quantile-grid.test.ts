import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../vectors';
import { quantileInterval } from './quantile-ci';
import { GRID_PERCENTS, GRID_TREND_STATS, gridInterval, gridOf, gridQuantile } from './quantile-grid';

/** Log-normal-ish latencies (a long right tail), seeded. */
function latencies(n: number, seed: number): number[] {
  const next = mulberry32(seed);
  return Array.from({ length: n }, () => 3 * Math.exp(-Math.log(1 - next() / 2 ** 32) * 0.4)).sort(
    (a, b) => a - b,
  );
}

describe('quantile grid', () => {
  it('names the trend statistics the runner summarises each window with', () => {
    expect(GRID_PERCENTS).toHaveLength(103);
    expect(GRID_TREND_STATS.slice(0, 6)).toEqual(['count', 'min', 'max', 'avg', 'med', 'p(0.1)']);
    expect(GRID_TREND_STATS.at(-1)).toBe('p(99.9)');
  });

  it.each([20, 200, 1000, 5000])(
    'with %i samples: estimates are the raw percentiles, intervals contain the raw ones',
    (n) => {
      const sorted = latencies(n, n);
      const grid = gridOf(sorted);
      for (const p of [0.5, 0.95, 0.99]) {
        const raw = quantileInterval(sorted, p);
        const fromGrid = gridInterval(grid, p);
        // The estimate shown and the one k6 computes from every sample are the same number.
        expect(fromGrid.estimate).toBeCloseTo(raw.estimate as number, 9);
        // Rounded outward to the grid: never narrower than the raw samples' interval, and null exactly where it is.
        expect(fromGrid.low === null).toBe(raw.low === null);
        expect(fromGrid.high === null).toBe(raw.high === null);
        if (raw.low !== null) expect(fromGrid.low as number).toBeLessThanOrEqual(raw.low);
        if (raw.high !== null) expect(fromGrid.high as number).toBeGreaterThanOrEqual(raw.high);
        // And the estimate lies inside its own interval.
        if (fromGrid.low !== null) expect(fromGrid.low).toBeLessThanOrEqual(fromGrid.estimate as number);
        if (fromGrid.high !== null) expect(fromGrid.high).toBeGreaterThanOrEqual(fromGrid.estimate as number);
      }
    },
  );

  it('bounds the p50 of 1000 samples within a grid step of the raw order statistics', () => {
    const sorted = latencies(1000, 7);
    const raw = quantileInterval(sorted, 0.5);
    const fromGrid = gridInterval(gridOf(sorted), 0.5);
    // x_(469) and x_(532) sit at positions 0.468 and 0.531: the grid's 46% and 54% points bound them.
    expect(fromGrid.low).toBeCloseTo(gridQuantile(gridOf(sorted), 0.46) as number, 9);
    expect(fromGrid.high).toBeCloseTo(gridQuantile(gridOf(sorted), 0.54) as number, 9);
    expect([raw.low, raw.high]).toEqual([sorted[468], sorted[531]]);
  });

  it('reads nothing from an empty window', () => {
    expect(gridInterval(gridOf([]), 0.5)).toEqual({ estimate: null, low: null, high: null, samples: 0 });
  });
});
