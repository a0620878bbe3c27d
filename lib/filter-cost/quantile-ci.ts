// Distribution-free confidence intervals for latency percentiles from raw samples: the interval between two order
// statistics whose ranks come from the binomial distribution (Hahn & Meeker, "Statistical Intervals", §5.2). No
// assumption about the latency distribution and no resampling, so the same samples always give the same interval.
// A bound that the sample count cannot support is null (e.g. the upper bound of p99 from 100 samples). Pure.

export interface QuantileInterval {
  /** The percentile by linear interpolation at p * (n - 1), as k6 computes it. */
  estimate: number | null;
  /** Bounds of the interval covering the true percentile with at least the requested confidence. */
  low: number | null;
  high: number | null;
  samples: number;
}

/** ln Γ(x) for x > 0 (Lanczos approximation, g = 7, n = 9; about 15 significant digits). */
function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let a = c[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** P(B <= k) for every k in 0..n, B ~ Binomial(n, p), 0 < p < 1. */
export function binomialCdf(n: number, p: number): number[] {
  const lnFactN = lnGamma(n + 1);
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  const cdf = new Array<number>(n + 1);
  let sum = 0;
  for (let k = 0; k <= n; k++) {
    sum += Math.exp(lnFactN - lnGamma(k + 1) - lnGamma(n - k + 1) + k * lp + (n - k) * lq);
    cdf[k] = Math.min(1, sum);
  }
  return cdf;
}

/** k6's percentile: linear interpolation between the order statistics around p * (n - 1). */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const pos = p * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * The 1-based ranks [l, u] of the order statistics bounding percentile p at `confidence` among n samples: l is the
 * largest rank with P(B <= l - 1) <= alpha/2 and u the smallest with P(B <= u - 1) >= 1 - alpha/2 (B ~ Binomial(n,
 * p)), so each side misses with probability at most alpha/2. A side the sample count cannot bound is null.
 */
export function intervalRanks(
  n: number,
  p: number,
  confidence = 0.95,
): { low: number | null; high: number | null } {
  if (n === 0 || p <= 0 || p >= 1) return { low: null, high: null };
  const tail = (1 - confidence) / 2;
  const cdf = binomialCdf(n, p);
  let low: number | null = null;
  // P(x_(l) > true percentile) = P(B <= l - 1).
  for (let l = n; l >= 1 && low === null; l--) if (cdf[l - 1] <= tail) low = l;
  let high: number | null = null;
  // P(x_(u) < true percentile) = P(B >= u) = 1 - P(B <= u - 1).
  for (let u = 1; u <= n && high === null; u++) if (cdf[u - 1] >= 1 - tail) high = u;
  return { low, high };
}

/** The interval [x_(l), x_(u)] of the sorted samples for percentile p (see intervalRanks). */
export function quantileInterval(sorted: readonly number[], p: number, confidence = 0.95): QuantileInterval {
  const n = sorted.length;
  const ranks = intervalRanks(n, p, confidence);
  return {
    estimate: percentile(sorted, p),
    low: ranks.low === null ? null : sorted[ranks.low - 1],
    high: ranks.high === null ? null : sorted[ranks.high - 1],
    samples: n,
  };
}
