// POST /v2/namespaces/:ns/query (single and multi-query) and POST /v2/namespaces/:ns/explain_query.
import { ApiError, notFound } from '../api-error';
import { executeQuery } from '../query/execute';
import { type QueryRequest, readQueryBody, readQueryJson } from '../wire/query-request';
import type { Reply, RouteContext } from './context';

export async function queryRoute(ctx: RouteContext): Promise<Reply> {
  const ns = ctx.registry.require(ctx.params.ns);
  const request = readQueryBody(await ctx.body(), ns.schema);
  try {
    return { body: await executeQuery(ns, request, ctx.startedAt) };
  } catch (error) {
    // The namespace was deleted while the query ran (its vector columns are closed): that is a 404, not a bug.
    if (ns.deleted && !(error instanceof ApiError)) throw notFound(ns.name);
    throw error;
  }
}

function describe(req: QueryRequest<unknown>): string {
  const lines = [`consistency: ${req.consistency}`];
  req.queries.forEach((q, i) => {
    const rank = q.rankBy
      ? q.rankBy.kind === 'vector'
        ? `${q.rankBy.mode === 'ann' ? 'ANN index + exhaustive scan of the unindexed tail' : 'exhaustive kNN scan'} on ${q.rankBy.column}`
        : q.rankBy.kind === 'text'
          ? 'full-text rank expression: BM25 over the inverted index + analysis of the unindexed tail'
          : `order by ${q.rankBy.keys.map((k) => `${k.attr} ${k.desc ? 'desc' : 'asc'}`).join(', ')}`
      : q.aggregates
        ? `aggregate ${q.aggregates.map((a) => a.label).join(', ')}${q.groupBy ? ` grouped by ${q.groupBy.map((g) => g.attr).join(', ')}` : ''}`
        : 'lookup in id order';
    const filter =
      q.filters === undefined
        ? 'no filter'
        : 'filter: attribute postings for indexed rows, row checks for the tail';
    lines.push(`query ${i}: ${rank}; ${filter}; top ${q.topK ?? 10}`);
  });
  if (req.rerank)
    lines.push(
      `fusion: reciprocal rank fusion (k = ${req.rerank.rankConstant}) of the ${req.queries.length} sub-queries' rows`,
    );
  return lines.join('\n');
}

export async function explainRoute(ctx: RouteContext): Promise<Reply> {
  ctx.registry.require(ctx.params.ns);
  // The plan reads only whether a query has filters: explain_query has never checked them.
  const request = readQueryJson(await ctx.body());
  return { body: { plan_text: describe(request) } };
}
