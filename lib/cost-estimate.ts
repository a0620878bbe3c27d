// What a real-service run would cost at turbopuffer's published prices (lib/turbopuffer-prices.ts): writes per GB
// with the 10 KB request minimum and the batch discount as a range, queries per byte queried with the per-query
// minimum and the large-namespace tiers, metadata reads as the service bills them (queries that return no rows,
// docs/turbopuffer-api.md §4), and storage prorated over the run's longest duration. Upper bounds from the plan's
// counts; each experiment's cost plan fills the usage in. Pure.
import { TURBOPUFFER_PRICES, type TurbopufferPrices } from './turbopuffer-prices';

interface WriteUsage {
  /** Write requests of one size. */
  requests: number;
  /** Logical bytes in each (vectors at 4 bytes per dimension, ids, attributes). */
  bytesPerRequest: number;
}

export interface QueryUsage {
  /** Queries against namespaces of one size. */
  count: number;
  /** Logical bytes of the namespace when queried (the most it holds, for a bound). */
  namespaceBytes: number;
  /** Logical bytes each returns (0 for a metadata read). */
  returnedBytes: number;
}

export interface StorageUsage {
  /** Logical bytes stored (the most the run holds at once). */
  bytes: number;
  /** Of those, bytes of attributes that are not filterable (billed at the unindexed rate). */
  unindexedBytes: number;
  /** How long they are stored at most, hours. */
  hours: number;
}

export interface Usage {
  writes: WriteUsage[];
  queries: QueryUsage[];
  metadataReads: QueryUsage[];
  storage: StorageUsage;
}

export interface CostEstimate {
  /** Writes without any batch discount (the bound), and with the largest one. */
  writesUsd: number;
  writesFullDiscountUsd: number;
  queriesUsd: number;
  metadataReadsUsd: number;
  storageUsd: number;
  /** The bound: every part at its most (no batch discount). */
  totalUsd: number;
  /** The same with the full batch discount on every write. */
  totalFullDiscountUsd: number;
}

/** Bytes one query against a namespace of `namespaceBytes` is billed for: the minimum, then the tiers. */
export function billedQueryBytes(namespaceBytes: number, p: TurbopufferPrices = TURBOPUFFER_PRICES): number {
  const bytes = Math.max(p.queryMinBytes, namespaceBytes);
  let billed = Math.min(bytes, p.queryTiers[0].fromBytes);
  p.queryTiers.forEach((tier, i) => {
    const upTo = p.queryTiers[i + 1]?.fromBytes ?? Number.POSITIVE_INFINITY;
    if (bytes > tier.fromBytes) billed += (Math.min(bytes, upTo) - tier.fromBytes) * tier.share;
  });
  return billed;
}

function queryUsd(queries: readonly QueryUsage[], p: TurbopufferPrices): number {
  return queries.reduce(
    (sum, q) =>
      sum +
      q.count *
        ((billedQueryBytes(q.namespaceBytes, p) / 1e15) * p.queryUsdPerPb +
          (q.returnedBytes / 1e9) * p.returnedUsdPerGb),
    0,
  );
}

export function estimateCost(u: Usage, p: TurbopufferPrices = TURBOPUFFER_PRICES): CostEstimate {
  const writtenBytes = u.writes.reduce(
    (sum, w) => sum + w.requests * Math.max(p.writeMinBytesPerRequest, w.bytesPerRequest),
    0,
  );
  const writesUsd = (writtenBytes / 1e9) * p.writeUsdPerGb;
  const writesFullDiscountUsd = writesUsd * (1 - p.writeBatchDiscountMax);
  const queriesUsd = queryUsd(u.queries, p);
  const metadataReadsUsd = queryUsd(u.metadataReads, p);
  const months = u.storage.hours / p.hoursPerMonth;
  const indexed = u.storage.bytes - u.storage.unindexedBytes;
  const storageUsd =
    ((indexed / 1e9) * p.storageUsdPerGbMonth +
      (u.storage.unindexedBytes / 1e9) * p.storageUnindexedUsdPerGbMonth) *
    months;
  const rest = queriesUsd + metadataReadsUsd + storageUsd;
  return {
    writesUsd,
    writesFullDiscountUsd,
    queriesUsd,
    metadataReadsUsd,
    storageUsd,
    totalUsd: writesUsd + rest,
    totalFullDiscountUsd: writesFullDiscountUsd + rest,
  };
}

/** "$12.34"; amounts under a cent as "<$0.01". */
export function formatUsd(usd: number): string {
  if (usd > 0 && usd < 0.005) return '<$0.01';
  return `$${usd.toFixed(2)}`;
}

/**
 * The estimate as one sentence for the plan: the bound, what it is made of, the discounted figure, where the prices
 * come from, and what it leaves out.
 */
export function formatEstimate(
  e: CostEstimate,
  keptAfter: StorageUsage | null,
  p: TurbopufferPrices = TURBOPUFFER_PRICES,
): string {
  const kept =
    keptAfter === null
      ? ''
      : `; kept namespaces then cost ${formatUsd(estimateCost({ writes: [], queries: [], metadataReads: [], storage: { ...keptAfter, hours: p.hoursPerMonth } }, p).storageUsd)} a month`;
  return (
    `Estimated bill at most ${formatUsd(e.totalUsd)} (writes ${formatUsd(e.writesUsd)}, queries ` +
    `${formatUsd(e.queriesUsd)}, metadata reads ${formatUsd(e.metadataReadsUsd)}, storage ${formatUsd(e.storageUsd)}), ` +
    `${formatUsd(e.totalFullDiscountUsd)} if every write gets the full ${p.writeBatchDiscountMax * 100} % batch ` +
    `discount${kept}. An estimate from turbopuffer's published ${p.plan} prices read on ${p.readOn} (${p.source}; ` +
    `lib/turbopuffer-prices.ts), before your plan's monthly minimum`
  );
}
