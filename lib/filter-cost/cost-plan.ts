// Upper bounds of what the whole study writes, queries and stores, and what that would cost on the real service at
// turbopuffer's published prices (lib/cost-estimate.ts), printed by setup() before any write and named by the
// refusal without TPUF_BENCH_CONFIRM_COST=1 (lib/cost-guard.ts). Against the emulator: the same counts, no bill. Pure.

import { formatBytes } from '../../core/sizes';
import {
  type CostEstimate,
  estimateCost,
  formatEstimate,
  type QueryUsage,
  type Usage,
} from '../cost-estimate';
import { queryRateBound } from '../query-scenario';
import { formatSeconds } from '../results/run-status';
import { rowBytes } from '../vectors';
import { attributeColumn, valueBytes } from './attribute-values';
import { distinctFilters, ranksByVector, type StudyPlan } from './cells';
import type { FilterCostConfig } from './config';
import type { Configuration } from './configurations';
import { TEARDOWN_TIMEOUT_S } from './options';
import { timeline } from './timeline';

/** What a query returns, at most, per row: its id and `$dist` or the attribute (8 bytes each). */
const RETURNED_BYTES_PER_ROW = 16;

export interface FilterCostPlan {
  namespaces: number;
  rows: number;
  /** Logical bytes written: id + f32 vector + the attribute's value, per row (the warm-up namespace left out). */
  bytes: number;
  writeRequests: number;
  /** Queries the windows and the JIT warm-up can start at most. */
  queries: number;
  /** Recall probes (an exact kNN and an ANN query per consistency each) and match counts. */
  probeQueries: number;
  /** Metadata reads, each billed as a query that returns no rows: one per poll interval of setup, two per namespace. */
  metadataReads: number;
  /** The run's longest duration: setup's timeout, the query windows, teardown's timeout. */
  durationS: { setup: number; scenarios: number; teardown: number; total: number };
  /** Dollars on the real service; null against the emulator. */
  cost: CostEstimate | null;
  usage: Usage;
}

export function logicalRowBytes(c: Pick<FilterCostConfig, 'dims' | 'rows'>, x: Configuration): number {
  if (x.attribute === null) return rowBytes(c.dims);
  return rowBytes(c.dims) + valueBytes(attributeColumn(x.attribute.type, c.rows, x.attribute.cardinality, 0));
}

export function planFilterCost(c: FilterCostConfig, plan: StudyPlan): FilterCostPlan {
  const t = timeline(c, plan.cells);
  const rate = queryRateBound(c.load);
  const nsBytes = new Map(c.configurations.map((x) => [x.name, c.rows * logicalRowBytes(c, x)]));
  const bytesOf = (configuration: string) => nsBytes.get(configuration) ?? 0;
  const returned = c.topK * RETURNED_BYTES_PER_ROW;
  const first = plan.cells[0]?.configuration ?? '';
  // Every window against its cell's namespace; the JIT warm-up against the first cell's.
  const queries: QueryUsage[] = [
    { count: Math.ceil((t.jitMs / 1000) * rate), namespaceBytes: bytesOf(first), returnedBytes: returned },
    ...t.windows.map((w) => ({
      count: Math.ceil(((w.warmupMs + w.measuredMs) / 1000) * rate),
      namespaceBytes: bytesOf(w.cell.configuration),
      returnedBytes: returned,
    })),
  ];
  const probes: QueryUsage[] = [
    ...plan.cells.filter(ranksByVector).map((cell) => ({
      count: 3 * c.recallQueries,
      namespaceBytes: bytesOf(cell.configuration),
      returnedBytes: returned,
    })),
    ...distinctFilters(plan.cells).map((cell) => ({
      count: 1,
      namespaceBytes: bytesOf(cell.configuration),
      returnedBytes: RETURNED_BYTES_PER_ROW,
    })),
  ];
  const metadataReads = Math.ceil(c.setupTimeoutS / c.pollIntervalS) + 2 * c.configurations.length;
  const largest = Math.max(0, ...nsBytes.values());
  const scenarios = Math.ceil(t.totalMs / 1000);
  const durationS = {
    setup: c.setupTimeoutS,
    scenarios,
    teardown: TEARDOWN_TIMEOUT_S,
    total: c.setupTimeoutS + scenarios + TEARDOWN_TIMEOUT_S,
  };
  const bytes = [...nsBytes.values()].reduce((s, b) => s + b, 0);
  const unindexedBytes = c.configurations
    .filter((x) => x.attribute !== null && !x.attribute.filterable)
    .reduce((s, x) => s + bytesOf(x.name) - c.rows * rowBytes(c.dims), 0);
  const warmupRequests = Math.ceil(c.ingestWarmupRows / c.writeBatchRows);
  const usage: Usage = {
    writes: [
      ...c.configurations.map((x) => ({
        requests: Math.ceil(c.rows / c.writeBatchRows),
        bytesPerRequest: c.writeBatchRows * logicalRowBytes(c, x),
      })),
      // The throwaway warm-up namespace holds string values (lib/filter-cost/setup.ts); a row of id, vector and 8 bytes.
      { requests: warmupRequests, bytesPerRequest: c.writeBatchRows * (rowBytes(c.dims) + 8) },
    ],
    queries: [...queries, ...probes],
    // Polls read whichever namespace is being ingested: bounded by the largest.
    metadataReads: [{ count: metadataReads, namespaceBytes: largest, returnedBytes: 0 }],
    // Every namespace stored for the whole run: the bound (they are created one after another).
    storage: { bytes, unindexedBytes, hours: durationS.total / 3600 },
  };
  return {
    namespaces: c.configurations.length,
    rows: c.rows * c.configurations.length,
    bytes,
    writeRequests: c.configurations.length * Math.ceil(c.rows / c.writeBatchRows),
    queries: queries.reduce((s, q) => s + q.count, 0),
    probeQueries: probes.reduce((s, q) => s + q.count, 0),
    metadataReads,
    durationS,
    cost: c.target.kind === 'turbopuffer' ? estimateCost(usage) : null,
    usage,
  };
}

export function formatFilterCostPlan(c: FilterCostConfig, p: FilterCostPlan): string {
  const d = p.durationS;
  const counts =
    `plan for ${c.target.baseUrl}: ${p.namespaces} namespaces in sequence, write ${p.rows} rows ` +
    `(${formatBytes(p.bytes)} logical, ${p.writeRequests} requests), start at most ${p.queries} queries, ` +
    `${p.probeQueries} probe and count queries and ${p.metadataReads} metadata reads, ` +
    (c.cleanup
      ? 'every namespace deleted at the end (CLEANUP=1)'
      : 'namespaces kept at the end (CLEANUP=0)') +
    `; at most ${formatSeconds(d.total)} (setup ${formatSeconds(d.setup)} at most, query windows ` +
    `${formatSeconds(d.scenarios)}, teardown ${formatSeconds(d.teardown)} at most)`;
  if (p.cost === null) return `${counts}. The local emulator: no bill`;
  return `${counts}. ${formatEstimate(p.cost, c.cleanup ? null : p.usage.storage)}`;
}
