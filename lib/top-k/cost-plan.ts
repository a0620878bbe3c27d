// The top-k experiment's bounds in rows, requests and time, and their price on the real service (lib/cost-estimate.ts),
// printed by setup() before any write and named by the refusal without TPUF_BENCH_CONFIRM_COST=1. Pure.
import { formatBytes } from '../../core/sizes';
import { type CostEstimate, estimateCost, formatEstimate, type Usage } from '../cost-estimate';
import { queryRateBound } from '../query-scenario';
import { formatSeconds } from '../results/run-status';
import { rowBytes } from '../vectors';
import type { TopKConfig } from './config';
import { TEARDOWN_TIMEOUT_S } from './options';
import { scheduleMs, windows } from './schedule';

/** What a query returns at most per row: its id and `$dist`. */
const RETURNED_BYTES_PER_ROW = 16;

export interface TopKPlan {
  bytes: number;
  seedRequests: number;
  maxQueries: number;
  /** setup()'s wait for the index reads metadata once a second. */
  maxMetadataReads: number;
  durationS: number;
  cost: CostEstimate | null;
  usage: Usage;
}

export function planTopK(c: TopKConfig): TopKPlan {
  const bytes = c.rows * rowBytes(c.dims);
  const scenariosS = scheduleMs(windows(c)) / 1000;
  const durationS = c.setupTimeoutS + scenariosS + TEARDOWN_TIMEOUT_S;
  const seedRequests = Math.ceil(c.rows / c.seedBatchRows);
  const perWindow = Math.ceil(queryRateBound(c.load) * (c.queryWarmupS + c.queryDurationS));
  const usage: Usage = {
    writes: [{ requests: seedRequests, bytesPerRequest: c.seedBatchRows * rowBytes(c.dims) }],
    queries: c.topKs.map((topK) => ({
      count: perWindow,
      namespaceBytes: bytes,
      returnedBytes: topK * RETURNED_BYTES_PER_ROW,
    })),
    metadataReads: [{ count: c.setupTimeoutS, namespaceBytes: bytes, returnedBytes: 0 }],
    storage: { bytes, unindexedBytes: 0, hours: durationS / 3600 },
  };
  return {
    bytes,
    seedRequests,
    maxQueries: perWindow * c.topKs.length,
    maxMetadataReads: c.setupTimeoutS,
    durationS,
    cost: c.target.kind === 'turbopuffer' ? estimateCost(usage) : null,
    usage,
  };
}

export function formatTopKPlan(c: TopKConfig, p: TopKPlan): string {
  const counts =
    `plan for ${c.target.baseUrl}: write ${c.rows} rows (${formatBytes(p.bytes)} of ${c.dims}-d f32 vectors, ` +
    `${p.seedRequests} requests), start at most ${p.maxQueries} queries and ${p.maxMetadataReads} metadata reads, ` +
    `one namespace${c.cleanup ? ' deleted at the end (CLEANUP=1)' : ' kept at the end (CLEANUP=0)'}; at most ` +
    formatSeconds(p.durationS);
  return p.cost === null
    ? `${counts}. The local emulator: no bill`
    : `${counts}. ${formatEstimate(p.cost, c.cleanup ? null : p.usage.storage)}`;
}
