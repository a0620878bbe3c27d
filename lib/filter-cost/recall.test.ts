import { describe, expect, it } from 'vitest';
import { recallAt, summarizeRecall } from './recall';

describe('recallAt', () => {
  it('is the share of exact ids the approximate answer found', () => {
    expect(recallAt([1, 2, 3, 4], [1, 2, 5, 6])).toBe(0.5);
    expect(recallAt(['a', 'b'], ['b', 'a'])).toBe(1);
    expect(recallAt([], [1, 2])).toBe(0);
  });

  it('counts a duplicated id once and is null without an exact answer', () => {
    expect(recallAt([1, 1, 1], [1, 2, 3])).toBeCloseTo(1 / 3, 12);
    expect(recallAt([1], [])).toBeNull();
  });
});

describe('summarizeRecall', () => {
  it('gives count, mean and minimum', () => {
    expect(summarizeRecall([1, 0.5, 0.75])).toEqual({ queries: 3, mean: 0.75, min: 0.5 });
    expect(summarizeRecall([])).toEqual({ queries: 0, mean: null, min: null });
  });
});
