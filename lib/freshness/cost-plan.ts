// Experiment 3's bounds in rows, requests and time, and their price on the real service at turbopuffer's published
// prices (lib/cost-estimate.ts): printed by setup() before any write and named by the refusal without
// TPUF_BENCH_CONFIRM_COST=1. Against the emulator: the same counts, no bill. Pure.
import { formatBytes } from '../../core/sizes';
import { type CostEstimate, estimateCost, formatEstimate, type Usage } from '../cost-estimate';
import { queryRateBound, queryScenarioVus } from '../query-scenario';
import { formatSeconds } from '../results/run-status';
import { rowBytes } from '../vectors';
import { BANDS, bandsDurationMs, scenariosDurationMs } from './bands';
import type { FreshnessConfig } from './config';
import { READS } from './probe';

export const TEARDOWN_TIMEOUT_S = 120;
/** What a query returns at most per row: its id and `$dist`. */
const RETURNED_BYTES_PER_ROW = 16;

export interface FreshnessPlan {
  maxRows: number;
  maxBytes: number;
  probes: number;
  /** Every query the run can send: sampled (three per iteration), probe reads. */
  maxQueries: number;
  maxMetadataReads: number;
  durationS: number;
  cost: CostEstimate | null;
  usage: Usage;
}

export function planFreshness(c: FreshnessConfig): FreshnessPlan {
  const row = rowBytes(c.dims);
  const bandsS = bandsDurationMs(c) / 1000;
  const scenariosS = scenariosDurationMs(c) / 1000;
  const durationS = c.setupTimeoutS + scenariosS + TEARDOWN_TIMEOUT_S;
  const probes = Math.ceil(c.probeRate * bandsS);
  const maxRows = c.maxTotalRows + probes * c.probeRows;
  const maxBytes = maxRows * row;
  const readsPerProbe = READS.length * Math.ceil((c.probeTimeoutS * 1000) / c.probeIntervalMs);
  const sampled = 3 * Math.ceil(queryRateBound(c.load) * scenariosS);
  const maxQueries = sampled + probes * readsPerProbe;
  // Setup's wait, each writer and each sampled-query VU once a second, and each probe's own readings.
  const maxMetadataReads =
    c.setupTimeoutS +
    (c.writers + queryScenarioVus(c.load)) * Math.ceil(scenariosS) +
    probes * (3 + c.probeTimeoutS);
  const usage: Usage = {
    writes: [
      { requests: Math.ceil(c.seedRows / c.seedBatchRows), bytesPerRequest: c.seedBatchRows * row },
      {
        requests: Math.ceil((c.maxTotalRows - c.seedRows) / c.writeBatchRows),
        bytesPerRequest: c.writeBatchRows * row,
      },
      { requests: probes, bytesPerRequest: c.probeRows * row },
    ],
    queries: [
      { count: maxQueries, namespaceBytes: maxBytes, returnedBytes: c.topK * RETURNED_BYTES_PER_ROW },
    ],
    metadataReads: [{ count: maxMetadataReads, namespaceBytes: maxBytes, returnedBytes: 0 }],
    storage: { bytes: maxBytes, unindexedBytes: 0, hours: durationS / 3600 },
  };
  return {
    maxRows,
    maxBytes,
    probes,
    maxQueries,
    maxMetadataReads,
    durationS,
    cost: c.target.kind === 'turbopuffer' ? estimateCost(usage) : null,
    usage,
  };
}

export function formatFreshnessPlan(c: FreshnessConfig, p: FreshnessPlan): string {
  const counts =
    `plan for ${c.target.baseUrl}: seed ${c.seedRows} rows, write at most ${p.maxRows} rows in all ` +
    `(${formatBytes(p.maxBytes)} of ${c.dims}-d f32 vectors, ${p.probes} probes of ${c.probeRows} rows among them), ` +
    `start at most ${p.maxQueries} queries and ${p.maxMetadataReads} metadata reads across ${BANDS.length} bands, ` +
    `one namespace${c.cleanup ? ' deleted at the end (CLEANUP=1)' : ' kept at the end (CLEANUP=0)'}; at most ` +
    formatSeconds(p.durationS);
  if (p.cost === null) return `${counts}. The local emulator: no bill`;
  return `${counts}. ${formatEstimate(p.cost, c.cleanup ? null : p.usage.storage)}`;
}
