// Upper bounds of what the whole study writes and queries on the real service, printed before any write and named
// by the refusal without TPUF_BENCH_CONFIRM_COST=1 (lib/cost-guard.ts). Pure.
import { queryRateBound } from '../query-scenario';
import { formatBytes } from '../sizes';
import { rowBytes } from '../vectors';
import { attributeColumn, valueBytes } from './attribute-values';
import { distinctFilters, ranksByVector, type StudyPlan } from './cells';
import type { FilterCostConfig } from './config';
import type { Configuration } from './configurations';
import { timeline } from './options';

/** turbopuffer bills at least this many logical bytes per query (docs/turbopuffer-api.md §3.5). */
const MIN_BILLED_QUERY_BYTES = 256_000_000;

export interface FilterCostPlan {
  namespaces: number;
  rows: number;
  /** Logical bytes written: id + f32 vector + the attribute's value, per row. */
  bytes: number;
  writeRequests: number;
  /** Queries the windows and the JIT warm-up can start at most. */
  queries: number;
  /** Recall probes (an exact kNN and an ANN query per consistency each) and match counts. */
  probeQueries: number;
  /** Metadata reads (billed like zero-row queries): at most one per poll interval of setup, plus one per namespace. */
  metadataReads: number;
  /** Estimated billable logical bytes queried: every query at max(256 MB, namespace bytes). */
  billableQueriedBytes: number;
  /** Upper bound of setup plus the scenarios, seconds. */
  durationS: number;
}

export function logicalRowBytes(c: Pick<FilterCostConfig, 'dims' | 'rows'>, x: Configuration): number {
  if (x.attribute === null) return rowBytes(c.dims);
  return rowBytes(c.dims) + valueBytes(attributeColumn(x.attribute.type, c.rows, x.attribute.cardinality, 0));
}

export function planFilterCost(c: FilterCostConfig, plan: StudyPlan): FilterCostPlan {
  const t = timeline(c, plan.cells);
  const queryMs = t.jitMs + t.windows.reduce((s, w) => s + w.warmupMs + w.measuredMs, 0);
  const queries = Math.ceil((queryMs / 1000) * queryRateBound(c.load));
  const probeQueries =
    3 * c.recallQueries * plan.cells.filter(ranksByVector).length + distinctFilters(plan.cells).length;
  const metadataReads = Math.ceil(c.setupTimeoutS / c.pollIntervalS) + 2 * c.configurations.length;
  const namespaceBytes = c.configurations.map((x) => c.rows * logicalRowBytes(c, x));
  const largest = Math.max(0, ...namespaceBytes);
  return {
    namespaces: c.configurations.length,
    rows: c.rows * c.configurations.length,
    bytes: namespaceBytes.reduce((s, b) => s + b, 0),
    writeRequests: c.configurations.length * Math.ceil(c.rows / c.writeBatchRows),
    queries,
    probeQueries,
    metadataReads,
    billableQueriedBytes:
      (queries + probeQueries + metadataReads) * Math.max(MIN_BILLED_QUERY_BYTES, largest),
    durationS: c.setupTimeoutS + Math.ceil(t.totalMs / 1000),
  };
}

export function formatFilterCostPlan(c: FilterCostConfig, p: FilterCostPlan): string {
  return (
    `plan for ${c.target.baseUrl}: ${p.namespaces} namespaces in sequence, write ${p.rows} rows ` +
    `(${formatBytes(p.bytes)} logical, ${p.writeRequests} requests), start at most ${p.queries} queries, ` +
    `${p.probeQueries} probe and count queries and ${p.metadataReads} metadata reads ` +
    `(about ${formatBytes(p.billableQueriedBytes)} billable bytes queried) over at most ${p.durationS} s` +
    (c.cleanup
      ? ', every namespace deleted at the end (CLEANUP=1)'
      : ', namespaces kept at the end (CLEANUP=0)')
  );
}
