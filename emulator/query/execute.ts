// Runs a parsed query (single or multi) against a namespace: waits for query slots, takes one view for all
// sub-queries (they see the same snapshot), filters, ranks or aggregates, and reports performance and billing.
import type { VectorEncoding } from '../../lib/turbopuffer-wire';
import { filterBitset } from '../filters/candidates';
import { wait } from '../namespace/cache';
import type { Namespace, ReadView } from '../namespace/namespace';
import { hasBit } from '../vector/bitset';
import type { RowBitset } from '../vector/types';
import { compareIds } from '../wire/ids';
import { queryExecution, serverTotal } from '../wire/performance';
import {
  DEFAULT_TOP_K,
  MAX_GROUPS,
  type QueryRequest,
  type QuerySpec,
  querySlots,
} from '../wire/query-request';
import { aggregate, aggregateGroups } from './aggregate';
import { fuseRows } from './fuse';
import { planView } from './plan';
import { projectRow, returnedAttributes } from './project';
import { rankByVector, rowComparator, topRows, topRowsPer } from './rank';
import { scoreRankExpr } from './text-rank';

/** turbopuffer bills at least this much per query (a tiny namespace reported 256000000). */
const MIN_BILLED_QUERY_BYTES = 256_000_000;

interface SubResult {
  body: Record<string, unknown>;
  exhaustive: number;
  returnedBytes: number;
}

function candidates(ns: Namespace, view: ReadView, q: QuerySpec): RowBitset | undefined {
  if (q.filters === undefined) return undefined;
  return filterBitset(q.filters, {
    rows: view.rows,
    indexedRows: view.indexedRows,
    dead: view.dead,
    index: ns.attributeIndex,
    fts: ns.ftsIndex,
    source: ns.store.source,
  });
}

/** The best `k` scored rows the filter allows: score descending, ties by id ascending. */
function topScored(ns: Namespace, scores: Map<number, number>, allow: RowBitset | undefined, k: number) {
  const hits: { row: number; score: number }[] = [];
  for (const [row, score] of scores) if (!allow || hasBit(allow, row)) hits.push({ row, score });
  hits.sort((a, b) => b.score - a.score || compareIds(ns.store.idOf(a.row), ns.store.idOf(b.row)));
  return hits.slice(0, k);
}

async function runOne(
  ns: Namespace,
  view: ReadView,
  q: QuerySpec,
  encoding: VectorEncoding,
): Promise<SubResult> {
  const allow = candidates(ns, view, q);
  const tail = view.rows - view.indexedRows;
  if (q.aggregates) {
    const body = q.groupBy
      ? {
          aggregation_groups: aggregateGroups(ns, view, allow, q.aggregates, q.groupBy, q.topK ?? MAX_GROUPS),
        }
      : { aggregations: aggregate(ns, view, allow, q.aggregates) };
    return { body, exhaustive: tail, returnedBytes: 0 };
  }
  const attributes = returnedAttributes(ns, q);
  const explicit = q.include !== true;
  let rows: Record<string, unknown>[];
  let exhaustive = tail;
  let returnedBytes = 0;
  // `offset` skips the best ranked rows: rank offset + k, return the last k.
  const depth = (q.topK ?? DEFAULT_TOP_K) + q.offset;
  if (q.rankBy?.kind === 'text') {
    if (!q.rankBy.expr)
      throw new Error('internal: a text rank expression was not checked against the schema');
    const hits = topScored(ns, scoreRankExpr(ns, view, q.rankBy.expr), allow, depth);
    rows = hits.slice(q.offset).map((hit) => {
      returnedBytes += ns.store.docBytesOf(hit.row);
      return projectRow(ns, hit.row, attributes, explicit, encoding, hit.score);
    });
  } else if (q.rankBy?.kind === 'vector') {
    const ranked = await rankByVector(ns, view, q.rankBy, depth, allow);
    exhaustive = ranked.exhaustive;
    rows = ranked.hits.slice(q.offset).map((hit) => {
      returnedBytes += ns.store.docBytesOf(hit.row);
      return projectRow(ns, hit.row, attributes, explicit, encoding, hit.dist);
    });
  } else {
    // Ordering by attributes; a lookup without rank_by returns matches in id order.
    const keys = q.rankBy?.kind === 'order' ? q.rankBy.keys : [{ attr: 'id', desc: false }];
    const compare = rowComparator(ns, keys);
    const picked = q.per
      ? topRowsPer(ns, view, allow, compare, depth, q.per.attributes, q.per.limit)
      : topRows(view, allow, depth, compare);
    rows = picked.slice(q.offset).map((row) => {
      returnedBytes += ns.store.docBytesOf(row);
      return projectRow(ns, row, attributes, explicit, encoding);
    });
  }
  return { body: { rows }, exhaustive, returnedBytes };
}

/** Executes a query request. `startedAt` (performance.now()) is when the request arrived. */
export async function executeQuery(
  ns: Namespace,
  req: QueryRequest,
  startedAt: number,
): Promise<Record<string, unknown>> {
  const release = await ns.gate.acquire(querySlots(req));
  try {
    const executionStarted = performance.now();
    // Object storage first, as on the service: what a cold cache still has to load, then a strong query's
    // freshness round trip (it learns the newest committed write, and the backlog, from it). Timers, not CPU.
    const cache = ns.cache.read(req.queries.some((q) => q.disableCache));
    const strongRead = req.consistency === 'strong' ? (ns.config.latency?.strongReadMs ?? 0) : 0;
    await wait(cache.waitMs + strongRead);
    const view = planView(ns, req.consistency);
    const results: SubResult[] = [];
    for (const q of req.queries) results.push(await runOne(ns, view, q, req.vectorEncoding));
    const perf = {
      approx_namespace_size: ns.liveDocumentsIn(view),
      cache_hit_ratio: cache.hitRatio,
      cache_temperature: cache.temperature,
      exhaustive_search_count: Math.max(0, ...results.map((r) => r.exhaustive)),
      ...queryExecution(executionStarted),
      ...serverTotal(startedAt),
    };
    const billing = {
      billable_logical_bytes_queried: Math.max(MIN_BILLED_QUERY_BYTES, ns.liveBytes) * req.queries.length,
      billable_logical_bytes_returned: results.reduce((sum, r) => sum + r.returnedBytes, 0),
    };
    if (req.rerank) {
      const fused = fuseRows(
        results.map((r) => (r.body.rows ?? []) as Record<string, unknown>[]),
        req.rerank,
        req.fusedOffset,
        req.fusedLimit,
      );
      return { results: [{ rows: fused }], billing, performance: perf };
    }
    if (req.multi) return { results: results.map((r) => r.body), billing, performance: perf };
    return { ...results[0].body, billing, performance: perf };
  } finally {
    release();
  }
}
