import { describe, expect, it } from 'vitest';
import { CounterSink, GaugeSink, RateSink, TrendSink } from './sinks';

describe('TrendSink', () => {
  it('interpolates percentiles linearly at p·(n−1)', () => {
    const t = new TrendSink();
    for (const v of [10, 20, 30, 40]) t.add(v);
    expect(t.percentile(50)).toBe(25);
    expect(t.percentile(90)).toBeCloseTo(37, 10);
    expect(t.percentile(0)).toBe(10);
    expect(t.percentile(100)).toBe(40);
    expect(t.avg).toBe(25);
  });

  it('stays exact when values arrive between queries', () => {
    const t = new TrendSink();
    const all: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 700; i++) {
        const v = (i * 7919 + round * 104729) % 1000;
        t.add(v);
        all.push(v);
      }
      all.sort((a, b) => a - b);
      expect(t.percentile(99)).toBeCloseTo(
        all[Math.floor(0.99 * (all.length - 1))] +
          (all[Math.ceil(0.99 * (all.length - 1))] - all[Math.floor(0.99 * (all.length - 1))]) *
            (0.99 * (all.length - 1) - Math.floor(0.99 * (all.length - 1))),
        9,
      );
    }
    expect(t.samples).toBe(3500);
  });

  it('reports 0 for an empty trend', () => {
    expect(new TrendSink().percentile(95)).toBe(0);
  });
});

describe('other sinks', () => {
  it('counter sums and rates over elapsed time', () => {
    const c = new CounterSink();
    c.add(1);
    c.add(2);
    expect(c.count).toBe(3);
    expect(c.rate(1500)).toBe(2);
  });

  it('gauge keeps the last value and extremes', () => {
    const g = new GaugeSink();
    for (const v of [3, 1, 2]) g.add(v);
    expect([g.value, g.min, g.max]).toEqual([2, 1, 3]);
  });

  it('rate counts non-zero values', () => {
    const r = new RateSink();
    for (const v of [1, 0, 5, 0]) r.add(v);
    expect([r.trues, r.samples, r.rate]).toEqual([2, 4, 0.5]);
  });
});
