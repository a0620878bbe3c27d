// Experiment 1's bounds in rows, bytes, requests and time, and what they would cost on the real service at
// turbopuffer's published prices (lib/cost-estimate.ts), printed by setup() before any write and named by the
// refusal without TPUF_BENCH_CONFIRM_COST=1 (lib/cost-guard.ts). Against the emulator: the same counts, no bill. Pure.

import { formatBytes } from '../../core/sizes';
import { type CostEstimate, estimateCost, formatEstimate, type Usage } from '../cost-estimate';
import { assertConfirmed } from '../cost-guard';
import type { EnvRecord } from '../env';
import { queryRateBound, queryScenarioVus } from '../query-scenario';
import { formatSeconds } from '../results/run-status';
import { rowBytes } from '../vectors';
import type { BacklogConfig } from './config';
import { QUERY_GRACEFUL_STOP_MS, scenarioSeconds, TEARDOWN_TIMEOUT_S } from './options';
import { PHASES, TICK_MS } from './phases';

/** What a query returns, at most, per row: its id and `$dist` (the bound of `billable_logical_bytes_returned`). */
const RETURNED_BYTES_PER_ROW = 16;

export interface CostPlan {
  seedRows: number;
  /** Ceiling on rows ever written (MAX_TOTAL_ROWS). */
  maxRows: number;
  /** Logical bytes of those rows (id + f32 vector each): the namespace's largest size. */
  maxBytes: number;
  /** Write requests: seeding, then the writers' batches up to the ceiling. */
  seedRequests: number;
  writerRequests: number;
  /** Queries the query scenario can start at most. */
  maxQueries: number;
  /**
   * Metadata reads, each billed as a query that returns no rows: setup's wait for the index (once a second), the
   * writers (once a second each, all the time) and the query VUs (once a second each while a phase gate is awaited).
   */
  maxMetadataReads: number;
  /** The run's longest duration: setup's timeout, the scenarios and their graceful stop, teardown's timeout. */
  durationS: { setup: number; scenarios: number; teardown: number; total: number };
  /** Dollars on the real service; null against the emulator. */
  cost: CostEstimate | null;
  usage: Usage;
}

export function planCost(c: BacklogConfig): CostPlan {
  const scenarios = scenarioSeconds(c) + QUERY_GRACEFUL_STOP_MS / 1000;
  const durationS = {
    setup: c.setupTimeoutS,
    scenarios,
    teardown: TEARDOWN_TIMEOUT_S,
    total: c.setupTimeoutS + scenarios + TEARDOWN_TIMEOUT_S,
  };
  const row = rowBytes(c.dims);
  const maxBytes = c.maxTotalRows * row;
  const seedRequests = Math.ceil(c.seedRows / c.seedBatchRows);
  const writerRequests = Math.ceil((c.maxTotalRows - c.seedRows) / c.writeBatchRows);
  const maxQueries = Math.ceil(queryRateBound(c.load) * scenarioSeconds(c));
  // Each gate wait lasts at most PHASE_TIMEOUT_S, plus the ticks a start snaps to.
  const waitS = (PHASES.length - 1) * (c.phaseTimeoutS + (3 * TICK_MS) / 1000);
  const maxMetadataReads =
    1 + c.setupTimeoutS + c.writers * scenarioSeconds(c) + queryScenarioVus(c.load) * Math.ceil(waitS);
  const usage: Usage = {
    writes: [
      { requests: seedRequests, bytesPerRequest: c.seedBatchRows * row },
      { requests: writerRequests, bytesPerRequest: c.writeBatchRows * row },
    ],
    queries: [
      { count: maxQueries, namespaceBytes: maxBytes, returnedBytes: c.topK * RETURNED_BYTES_PER_ROW },
    ],
    metadataReads: [{ count: maxMetadataReads, namespaceBytes: maxBytes, returnedBytes: 0 }],
    storage: { bytes: maxBytes, unindexedBytes: 0, hours: durationS.total / 3600 },
  };
  return {
    seedRows: c.seedRows,
    maxRows: c.maxTotalRows,
    maxBytes,
    seedRequests,
    writerRequests,
    maxQueries,
    maxMetadataReads,
    durationS,
    cost: c.target.kind === 'turbopuffer' ? estimateCost(usage) : null,
    usage,
  };
}

export function formatPlan(c: BacklogConfig, p: CostPlan): string {
  const d = p.durationS;
  const counts =
    `plan for ${c.target.baseUrl}: seed ${p.seedRows} rows, write at most ${p.maxRows} rows in all ` +
    `(${formatBytes(p.maxBytes)} of ${c.dims}-d f32 vectors, ${p.seedRequests + p.writerRequests} requests), start ` +
    `at most ${p.maxQueries} queries and ${p.maxMetadataReads} metadata reads, one namespace` +
    (c.cleanup ? ' deleted at the end (CLEANUP=1)' : ' kept at the end (CLEANUP=0)') +
    `; at most ${formatSeconds(d.total)} (setup ${formatSeconds(d.setup)} at most, scenarios ` +
    `${formatSeconds(d.scenarios)}, teardown ${formatSeconds(d.teardown)} at most)`;
  if (p.cost === null) return `${counts}. The local emulator: no bill`;
  return `${counts}. ${formatEstimate(p.cost, c.cleanup ? null : p.usage.storage)}`;
}

/** Throws (naming TPUF_BENCH_CONFIRM_COST and the plan) unless the target is free or the cost was confirmed. */
export function assertCostAccepted(env: EnvRecord, c: BacklogConfig, p: CostPlan): void {
  assertConfirmed(env, c.target, formatPlan(c, p));
}
