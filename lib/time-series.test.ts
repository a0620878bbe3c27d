import { describe, expect, it } from 'vitest';
import {
  bucketTag,
  bucketTags,
  MAX_BUCKETS,
  pollRowCounts,
  seriesClock,
  seriesIntervalS,
} from './time-series';

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

describe('pollRowCounts', () => {
  it('counts approx_row_count as the rows indexed and adds unindexed_rows for the rows written', () => {
    // Four polls of the committed filter-cost run's int-2 ingest: approx_row_count holds while the backlog grows.
    const polls: [number, number][] = [
      [25_000, 0],
      [25_000, 4000],
      [25_000, 8000],
      [37_000, 0],
    ];
    const counts = polls.map(([approx, unindexed]) => pollRowCounts(approx, unindexed));
    expect(counts.map((c) => c.rows)).toEqual([25_000, 29_000, 33_000, 37_000]);
    // Never falling, as the rows an index covers cannot (approx_row_count - unindexed_rows fell to 17,000).
    expect(counts.map((c) => c.rowsIndexed)).toEqual([25_000, 25_000, 25_000, 37_000]);
  });

  it("has no rows written where the poll lacks unindexed_rows (null, or the gauge's -1), nor anything without a count", () => {
    expect(pollRowCounts(100, null)).toEqual({ rows: null, rowsIndexed: 100 });
    expect(pollRowCounts(100, -1)).toEqual({ rows: null, rowsIndexed: 100 });
    expect(pollRowCounts(undefined, 5)).toEqual({ rows: null, rowsIndexed: null });
  });
});
