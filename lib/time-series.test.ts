import { describe, expect, it } from 'vitest';
import { bucketTag, bucketTags, MAX_BUCKETS, seriesClock, seriesIntervalS } from './time-series';

describe('the series clock', () => {
  it('takes the narrowest bucket that covers the bound in at most MAX_BUCKETS buckets', () => {
    expect(seriesIntervalS(256_000)).toBe(1);
    expect(seriesIntervalS(MAX_BUCKETS * 1000)).toBe(1);
    expect(seriesIntervalS(MAX_BUCKETS * 1000 + 1)).toBe(2);
    expect(seriesIntervalS(840_000)).toBe(5);
    expect(seriesIntervalS(2_226_000)).toBe(10);
    expect(seriesClock(1000, 2500)).toEqual({ originMs: 1000, intervalS: 1, buckets: 3 });
  });

  it('names a sample by its bucket start and leaves samples outside the clock out', () => {
    const c = { originMs: 10_000, intervalS: 5, buckets: 4 };
    expect(bucketTags(c)).toEqual(['0', '5', '10', '15']);
    expect(bucketTag(c, 10_000)).toBe('0');
    expect(bucketTag(c, 14_999)).toBe('0');
    expect(bucketTag(c, 15_000)).toBe('5');
    expect(bucketTag(c, 29_999)).toBe('15');
    expect(bucketTag(c, 30_000)).toBe('outside');
    expect(bucketTag(c, 9_999)).toBe('outside');
  });
});
