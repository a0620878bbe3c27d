// Experiment 1's upper bounds in rows, bytes, queries and time on the real service, printed before any write and
// named by the shared refusal (lib/cost-guard.ts). Pure.
import { assertConfirmed } from '../cost-guard';
import type { EnvRecord } from '../env';
import { queryRateBound, queryScenarioVus } from '../query-scenario';
import { formatBytes } from '../sizes';
import { rowBytes } from '../vectors';
import type { BacklogConfig } from './config';

export interface CostPlan {
  seedRows: number;
  /** Ceiling on rows ever written (MAX_TOTAL_ROWS). */
  maxRows: number;
  /** Logical bytes of those rows (id + f32 vector each). */
  maxBytes: number;
  /** Queries the arrival-rate scenario can start at most. */
  maxQueries: number;
  /**
   * Metadata reads (billed like zero-row queries): each VU reads at most once per second, writers all the time,
   * query VUs only while a phase gate is awaited; this bound counts every VU for the whole duration.
   */
  maxMetadataReads: number;
  /** Upper bound of the scenarios' duration. */
  durationS: number;
}

export function planCost(c: BacklogConfig, durationMs: number): CostPlan {
  const durationS = Math.ceil(durationMs / 1000);
  return {
    seedRows: c.seedRows,
    maxRows: c.maxTotalRows,
    maxBytes: c.maxTotalRows * rowBytes(c.dims),
    maxQueries: Math.ceil(queryRateBound(c.load) * durationS),
    maxMetadataReads: (c.writers + queryScenarioVus(c.load)) * durationS,
    durationS,
  };
}

export function formatPlan(c: BacklogConfig, p: CostPlan): string {
  return (
    `plan for ${c.target.baseUrl}: seed ${p.seedRows} rows, write at most ${p.maxRows} rows ` +
    `(${formatBytes(p.maxBytes)} of ${c.dims}-d f32 vectors), start at most ${p.maxQueries} queries ` +
    `and ${p.maxMetadataReads} metadata reads ` +
    `over at most ${p.durationS} s (plus setup), one namespace${c.cleanup ? ', deleted at the end (CLEANUP=1)' : ' kept at the end (CLEANUP=0)'}`
  );
}

/** Throws (naming TPUF_BENCH_CONFIRM_COST and the plan) unless the target is free or the cost was confirmed. */
export function assertCostAccepted(env: EnvRecord, c: BacklogConfig, p: CostPlan): void {
  assertConfirmed(env, c.target, formatPlan(c, p));
}
