// Upper bounds of what one configuration's run writes and queries on the real service, printed before any write
// and summed over every configuration by the launcher. Pure.

import { formatBytes } from '../sizes';
import { rowBytes } from '../vectors';
import { attributeColumn, valueBytes } from './attribute-values';
import { type QueryCell, ranksByVector } from './cells';
import type { FilterCostConfig } from './config';
import { timeline } from './options';

/** turbopuffer bills at least this many logical bytes per query (docs/turbopuffer-api.md §3.5). */
const MIN_BILLED_QUERY_BYTES = 256_000_000;

export interface FilterCostPlan {
  rows: number;
  /** Logical bytes written: id + f32 vector + the attribute's value, per row. */
  bytes: number;
  writeRequests: number;
  /** Queries the cells and the JIT warm-up can start at most. */
  queries: number;
  /** Recall probes: one ANN and one exact kNN query per probe (kNN is the expensive one). */
  recallQueries: number;
  /** Metadata reads (billed like zero-row queries): at most one per second of setup, plus the final checks. */
  metadataReads: number;
  /** Estimated billable logical bytes queried: every query at max(256 MB, namespace bytes). */
  billableQueriedBytes: number;
  /** Upper bound of setup plus the scenarios, seconds. */
  durationS: number;
}

export function logicalRowBytes(c: FilterCostConfig): number {
  if (c.attribute === 'none') return rowBytes(c.dims);
  const column = attributeColumn(c.attribute, c.rows, c.cardinality, 0);
  return rowBytes(c.dims) + valueBytes(column);
}

export function planFilterCost(c: FilterCostConfig, cells: readonly QueryCell[]): FilterCostPlan {
  const plan = timeline(c, cells);
  const bytes = c.rows * logicalRowBytes(c);
  const queries =
    Math.ceil((plan.jitMs / 1000) * c.queryRate) +
    cells.length * Math.ceil((c.queryWarmupS + c.queryDurationS) * c.queryRate);
  const recallQueries = 2 * c.recallQueries * cells.filter(ranksByVector).length;
  const metadataReads = c.setupTimeoutS + 2;
  return {
    rows: c.rows,
    bytes,
    writeRequests: Math.ceil(c.rows / c.writeBatchRows),
    queries,
    recallQueries,
    metadataReads,
    billableQueriedBytes: (queries + recallQueries + metadataReads) * Math.max(MIN_BILLED_QUERY_BYTES, bytes),
    durationS: c.setupTimeoutS + Math.ceil(plan.totalMs / 1000),
  };
}

export function formatFilterCostPlan(c: FilterCostConfig, p: FilterCostPlan): string {
  return (
    `plan for ${c.target.baseUrl}, configuration ${c.label}: write ${p.rows} rows ` +
    `(${formatBytes(p.bytes)} logical, ${p.writeRequests} requests), start at most ${p.queries} queries, ` +
    `${p.recallQueries} recall probe queries and ${p.metadataReads} metadata reads ` +
    `(about ${formatBytes(p.billableQueriedBytes)} billable bytes queried) over at most ${p.durationS} s, ` +
    `one namespace${c.cleanup ? ', deleted at the end (CLEANUP=1)' : ' kept at the end (CLEANUP=0)'}`
  );
}
