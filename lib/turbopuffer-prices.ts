// turbopuffer's published prices: the one place bench keeps them, with where and when they were read. Every dollar
// figure bench prints comes from this table (lib/cost-estimate.ts) and says it is an estimate. Prices change: check
// the pages below, then edit this file (and its date) alone. Background: docs/turbopuffer-api.md §6.

export const TURBOPUFFER_PRICES = {
  /** The pricing page and its change log. */
  source: 'https://turbopuffer.com/pricing',
  changeLog: 'https://turbopuffer.com/docs/pricing-log',
  /** When bench read the pages; the change log's newest entry then was 2026-09-11. */
  readOn: '2026-12-01',
  changeLogUpdated: '2026-09-11',
  /** The Launch and Scale plans share these rates; Enterprise's are 35 % higher. */
  plan: 'Launch/Scale',

  /** Writes: dollars per GB of logical bytes (10^9), each request billed at least 10 KB (10^4 bytes). */
  writeUsdPerGb: 2,
  writeMinBytesPerRequest: 10_000,
  /**
   * Large requests get a batch discount on all their bytes, up to this share. The page states the cap, not the
   * schedule, so an estimate gives the undiscounted bill as its bound and the fully discounted one beside it.
   */
  writeBatchDiscountMax: 0.5,

  /** Queries: dollars per PB (10^15) of data queried, each query billed at least 1.28 GB. */
  queryUsdPerPb: 1,
  queryMinBytes: 1.28e9,
  /** Marginal discounts on the bytes one query queries: 80 % off from 32 GB to 128 GB, 96 % off above 128 GB. */
  queryTiers: [
    { fromBytes: 32e9, share: 0.2 },
    { fromBytes: 128e9, share: 0.04 },
  ],
  /** Data returned: dollars per GB. */
  returnedUsdPerGb: 0.05,

  /** Storage: dollars per GB-month; attributes that are not filterable (unindexed) bill at half. */
  storageUsdPerGbMonth: 0.33,
  storageUnindexedUsdPerGbMonth: 0.165,
  /** Hours in the month storage is prorated over (365 x 24 / 12). */
  hoursPerMonth: 730,

  /** Monthly minimums: a bill is at least this whatever the usage. */
  monthlyMinimumUsd: { launch: 16, scale: 256 },
} as const;

export type TurbopufferPrices = typeof TURBOPUFFER_PRICES;
