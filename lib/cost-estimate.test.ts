import { describe, expect, it } from 'vitest';
import { billedQueryBytes, estimateCost, formatEstimate, formatUsd } from './cost-estimate';

const GB = 1e9;

describe('the dollar estimate', () => {
  it('bills a query its namespace, at least 1.28 GB, with the tiers above 32 GB and 128 GB', () => {
    expect(billedQueryBytes(0.5 * GB)).toBe(1.28 * GB);
    expect(billedQueryBytes(4 * GB)).toBe(4 * GB);
    // 32 GB in full, 96 GB at 20 %, 72 GB at 4 %.
    expect(billedQueryBytes(200 * GB)).toBeCloseTo((32 + 96 * 0.2 + 72 * 0.04) * GB, 0);
  });

  // A worked example, by hand from the price table (lib/turbopuffer-prices.ts):
  //   writes:   1,000 requests of 3 MB = 3 GB, plus 10 requests of 1 KB billed at 10 KB each = 0.0001 GB
  //             -> 3.0001 GB x $2 = $6.0002 (with the full 50 % batch discount $3.0001)
  //   queries:  100,000 on a 4 GB namespace = 0.4 PB -> $0.40; plus 100,000 x 160 B returned = 0.016 GB -> $0.0008
  //             1,000 on a 0.5 GB namespace at the 1.28 GB minimum = 1.28 TB -> $0.00128
  //             10 on a 200 GB namespace at 54.08 GB each = 540.8 GB -> $0.0005408
  //   metadata: 3,600 reads of the 4 GB namespace, no rows = 14.4 TB -> $0.0144
  //   storage:  4 GB, of which 1 GB unindexed, for 73 hours (a tenth of a month):
  //             (3 x $0.33 + 1 x $0.165) x 0.1 = $0.1155
  const usage = {
    writes: [
      { requests: 1000, bytesPerRequest: 3e6 },
      { requests: 10, bytesPerRequest: 1000 },
    ],
    queries: [
      { count: 100_000, namespaceBytes: 4 * GB, returnedBytes: 160 },
      { count: 1000, namespaceBytes: 0.5 * GB, returnedBytes: 0 },
      { count: 10, namespaceBytes: 200 * GB, returnedBytes: 0 },
    ],
    metadataReads: [{ count: 3600, namespaceBytes: 4 * GB, returnedBytes: 0 }],
    storage: { bytes: 4 * GB, unindexedBytes: 1 * GB, hours: 73 },
  };

  it('adds up a worked example', () => {
    const e = estimateCost(usage);
    expect(e.writesUsd).toBeCloseTo(6.0002, 10);
    expect(e.writesFullDiscountUsd).toBeCloseTo(3.0001, 10);
    expect(e.queriesUsd).toBeCloseTo(0.4 + 0.0008 + 0.00128 + 0.0005408, 10);
    expect(e.metadataReadsUsd).toBeCloseTo(0.0144, 10);
    expect(e.storageUsd).toBeCloseTo(0.1155, 10);
    expect(e.totalUsd).toBeCloseTo(6.0002 + 0.4026208 + 0.0144 + 0.1155, 10);
    expect(e.totalFullDiscountUsd).toBeCloseTo(3.0001 + 0.4026208 + 0.0144 + 0.1155, 10);
  });

  it('prints the bound, its parts, the discounted figure and where the prices come from', () => {
    expect(formatEstimate(estimateCost(usage), null)).toBe(
      'Estimated bill at most $6.53 (writes $6.00, queries $0.40, metadata reads $0.01, storage $0.12), $3.53 if ' +
        "every write gets the full 50 % batch discount. An estimate from turbopuffer's published Launch/Scale " +
        'prices read on 2026-12-01 (https://turbopuffer.com/pricing; lib/turbopuffer-prices.ts), before your ' +
        "plan's monthly minimum",
    );
    // Kept namespaces: a month of the same 4 GB.
    expect(formatEstimate(estimateCost(usage), usage.storage)).toContain(
      '; kept namespaces then cost $1.16 a month.',
    );
    expect([formatUsd(0), formatUsd(0.004), formatUsd(0.005), formatUsd(12.345)]).toEqual([
      '$0.00',
      '<$0.01',
      '$0.01',
      '$12.35',
    ]);
  });
});
