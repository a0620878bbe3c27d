import { describe, expect, it } from 'vitest';
import { binomialCdf, percentile, quantileInterval } from './quantile-ci';

const ranks = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('binomialCdf', () => {
  it('matches exact values for small n', () => {
    const cdf = binomialCdf(4, 0.5);
    expect(cdf.map((x) => Number(x.toFixed(10)))).toEqual([0.0625, 0.3125, 0.6875, 0.9375, 1]);
  });

  it('stays accurate for large n', () => {
    // P(B <= 50) for Binomial(100, 0.5) = 0.5397946186935...
    expect(binomialCdf(100, 0.5)[50]).toBeCloseTo(0.539794618693589, 10);
  });
});

describe('quantileInterval', () => {
  it('gives the textbook ranks 40 and 61 for the median of 100 samples', () => {
    // With samples 1..100 the order statistic x_(r) is r itself.
    expect(quantileInterval(ranks(100), 0.5)).toEqual({ estimate: 50.5, low: 40, high: 61, samples: 100 });
  });

  it('has no upper bound for p99 from 100 samples, and one from 1000 (ranks checked with exact binomial sums)', () => {
    expect(quantileInterval(ranks(100), 0.99)).toMatchObject({ low: 97, high: null });
    const big = quantileInterval(ranks(1000), 0.99);
    expect(big.low).toBe(983);
    expect(big.high).toBe(997);
  });

  it('has no bounds at all for the median of 5 samples', () => {
    expect(quantileInterval(ranks(5), 0.5)).toEqual({ estimate: 3, low: null, high: null, samples: 5 });
  });

  it('covers the true median in at least 95% of seeded uniform draws', () => {
    let seed = 12345;
    const next = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    let covered = 0;
    const trials = 400;
    for (let t = 0; t < trials; t++) {
      const sample = Array.from({ length: 60 }, next).sort((a, b) => a - b);
      const ci = quantileInterval(sample, 0.5);
      if (ci.low !== null && ci.high !== null && ci.low <= 0.5 && 0.5 <= ci.high) covered++;
    }
    expect(covered / trials).toBeGreaterThanOrEqual(0.93);
  });
});

describe('percentile', () => {
  it("interpolates at p * (n - 1) like k6's trend percentiles", () => {
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBeCloseTo(9.55, 10);
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([7], 0.99)).toBe(7);
  });
});
