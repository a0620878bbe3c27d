// The tests `bench compare` marks changes with, each on data both runs keep. Two-sided, 95 %. Pure; the
// distributions come from jstat.
import jStat from 'jstat';

const CONFIDENCE = 0.95;
const Z = jStat.normal.inv(1 - (1 - CONFIDENCE) / 2, 0, 1);

/** A change B − A with its interval (null: unbounded on that side, or not computable) and p-value. */
export interface Difference {
  estimate: number;
  low: number | null;
  high: number | null;
  /** Two-sided p-value where a test gives one. */
  p: number | null;
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const variance = (xs: readonly number[]) => {
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
};

/** Welch's t-test on two sets of repeats (at least two each): the difference of means, its interval and p. */
export function welch(a: readonly number[], b: readonly number[]): Difference | null {
  if (a.length < 2 || b.length < 2) return null;
  const va = variance(a) / a.length;
  const vb = variance(b) / b.length;
  const estimate = mean(b) - mean(a);
  const se = Math.sqrt(va + vb);
  if (se === 0) return { estimate, low: estimate, high: estimate, p: estimate === 0 ? 1 : 0 };
  const dof = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  const t = jStat.studentt.inv(1 - (1 - CONFIDENCE) / 2, dof);
  const p = 2 * (1 - jStat.studentt.cdf(Math.abs(estimate / se), dof));
  return { estimate, low: estimate - t * se, high: estimate + t * se, p };
}

/**
 * Mann–Whitney U (normal approximation with the tie correction) on two samples of at least three each: the p-value
 * that one is shifted against the other. No interval.
 */
export function mannWhitneyP(a: readonly number[], b: readonly number[]): number | null {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 < 3 || n2 < 3) return null;
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(all.length);
  let ties = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1].v === all[i].v) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[k] = rank;
    const t = j - i + 1;
    ties += t ** 3 - t;
    i = j + 1;
  }
  const r1 = all.reduce((s, x, i) => (x.g === 0 ? s + ranks[i] : s), 0);
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1))));
  if (sd === 0) return 1;
  const z = (Math.abs(u - (n1 * n2) / 2) - 0.5) / sd;
  return Math.min(1, 2 * (1 - jStat.normal.cdf(Math.max(0, z), 0, 1)));
}

/** Difference of two error shares (k of n each): Wald interval and the pooled two-proportion z-test. */
export function proportions(ka: number, na: number, kb: number, nb: number): Difference | null {
  if (na <= 0 || nb <= 0) return null;
  const pa = ka / na;
  const pb = kb / nb;
  const estimate = pb - pa;
  const se = Math.sqrt((pa * (1 - pa)) / na + (pb * (1 - pb)) / nb);
  const pooled = (ka + kb) / (na + nb);
  const se0 = Math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb));
  const p = se0 === 0 ? 1 : 2 * (1 - jStat.normal.cdf(Math.abs(estimate) / se0, 0, 1));
  return { estimate, low: estimate - Z * se, high: estimate + Z * se, p };
}

/** Difference of two event rates (counts over seconds), Poisson counts: normal interval and z-test. */
export function rates(ca: number, ta: number, cb: number, tb: number): Difference | null {
  if (ta <= 0 || tb <= 0) return null;
  const estimate = cb / tb - ca / ta;
  const se = Math.sqrt(ca / ta ** 2 + cb / tb ** 2);
  const p = se === 0 ? 1 : 2 * (1 - jStat.normal.cdf(Math.abs(estimate) / se, 0, 1));
  return { estimate, low: estimate - Z * se, high: estimate + Z * se, p };
}

/**
 * Difference of two percentiles from their own 95 % intervals: the widest difference both intervals allow
 * ([lowB − highA, highB − lowA], at least 90 % coverage when each covers 95 %). No p-value.
 */
export function fromIntervals(
  a: number,
  ia: [number | null, number | null],
  b: number,
  ib: [number | null, number | null],
): Difference {
  const low = ib[0] === null || ia[1] === null ? null : ib[0] - ia[1];
  const high = ib[1] === null || ia[0] === null ? null : ib[1] - ia[0];
  return { estimate: b - a, low, high, p: null };
}

/**
 * A difference B − A of figures that are never negative (latencies, rates, error shares) with its interval cut at
 * −A: B − A cannot go lower, so a wide interval on a small A would otherwise show a fall of more than 100 %. The cut
 * keeps the coverage (the part removed holds no possible value) and never changes significance (a low bound under −A
 * is under 0 either way).
 */
export function nonNegative(d: Difference, a: number): Difference {
  return d.low !== null && d.low < -a ? { ...d, low: -a } : d;
}

/** Whether a difference is significant: its interval excludes 0, or (without one) its p-value is under 5 %. */
export function significant(d: Difference): boolean | null {
  if (d.low !== null && d.high !== null) return d.low > 0 || d.high < 0;
  if (d.low !== null && d.low > 0) return true;
  if (d.high !== null && d.high < 0) return true;
  if (d.p !== null) return d.p < 1 - CONFIDENCE;
  return d.low === null && d.high === null ? null : false;
}
