// Each window's client latency as a quantile grid: the exact percentiles the runner computes from every sample
// (k6's linear interpolation at p·(n−1)) at fixed points, 1 % apart with finer tails. handleSummary sees only
// summary statistics, so this grid is the compact latency record the result keeps, and every percentile and interval
// the report shows is read from it: the estimates exactly (p50, p95 and p99 are grid points), the 95 % intervals
// from the order statistics the binomial ranks name, rounded outward to the nearest grid points, so an interval is
// never narrower than the raw samples' one. Pure.
import { intervalRanks, percentile } from './quantile-ci';

/** The grid's percentiles: 0.1, 0.5, 1, 2, ..., 98, 99, 99.5, 99.9. */
export const GRID_PERCENTS: readonly number[] = [
  0.1,
  0.5,
  ...Array.from({ length: 99 }, (_, i) => i + 1),
  99.5,
  99.9,
];

/** The summary statistics a window's trends are summarised with (summaryTrendStats). */
export const GRID_TREND_STATS: readonly string[] = [
  'count',
  'min',
  'max',
  'avg',
  'med',
  ...GRID_PERCENTS.map((p) => `p(${p})`),
];

export interface QuantileGrid {
  /** Samples summarised. */
  n: number;
  min: number;
  max: number;
  /** Values at GRID_PERCENTS, in that order (ms). */
  values: number[];
}

/** The grid's points as (position in [0, 1], value), min and max included. */
function points(g: QuantileGrid): [number, number][] {
  return [[0, g.min], ...GRID_PERCENTS.map((p, i): [number, number] => [p / 100, g.values[i]]), [1, g.max]];
}

/** The percentile p (0..1) read from the grid: exact at grid points, linear between them. */
export function gridQuantile(g: QuantileGrid, p: number): number | null {
  if (g.n === 0) return null;
  const pts = points(g);
  for (let i = 1; i < pts.length; i++) {
    const [x1, y1] = pts[i];
    if (p <= x1 + 1e-12) {
      const [x0, y0] = pts[i - 1];
      return x1 === x0 ? y1 : y0 + ((y1 - y0) * (p - x0)) / (x1 - x0);
    }
  }
  return g.max;
}

export interface GridInterval {
  estimate: number | null;
  /** Bounds of the 95 % interval (null: the sample count cannot bound that side). */
  low: number | null;
  high: number | null;
  samples: number;
}

/**
 * Percentile p with its distribution-free interval, both from the grid. Order statistic x_(r) sits at position
 * (r − 1)/(n − 1); the low bound takes the grid point at or below its position, the high bound the one at or above.
 */
export function gridInterval(g: QuantileGrid, p: number, confidence = 0.95): GridInterval {
  const estimate = gridQuantile(g, p);
  const ranks = intervalRanks(g.n, p, confidence);
  if (g.n < 2) return { estimate, low: null, high: null, samples: g.n };
  const pts = points(g);
  const position = (rank: number) => (rank - 1) / (g.n - 1);
  const below = (x: number) => {
    let value = pts[0][1];
    for (const [px, py] of pts) if (px <= x + 1e-12) value = py;
    return value;
  };
  const above = (x: number) => {
    for (const [px, py] of pts) if (px >= x - 1e-12) return py;
    return g.max;
  };
  return {
    estimate,
    low: ranks.low === null ? null : below(position(ranks.low)),
    high: ranks.high === null ? null : above(position(ranks.high)),
    samples: g.n,
  };
}

/** The grid of raw samples as the runner would summarise them (tests and offline recomputation). */
export function gridOf(sorted: readonly number[]): QuantileGrid {
  return {
    n: sorted.length,
    min: sorted[0] ?? 0,
    max: sorted[sorted.length - 1] ?? 0,
    values:
      sorted.length === 0
        ? GRID_PERCENTS.map(() => 0)
        : GRID_PERCENTS.map((p) => percentile(sorted, p / 100) as number),
  };
}
