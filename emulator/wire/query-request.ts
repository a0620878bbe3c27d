// A query body (POST /v2/namespaces/:ns/query, single or multi-query) -> a typed query, or a 400 naming the field.
// Its filters become trees checked against the namespace's schema here too, so that what runs the query never
// meets filter JSON.
import type {
  AggregateFunction,
  Consistency,
  QueryFields,
  QueryRequestFields,
  VectorEncoding,
} from '../../lib/turbopuffer-wire';
import { badRequest } from '../api-error';
import { type FilterNode, type FilterSchema, parseFilter } from '../filters/parse';
import { holdsRoundedInteger } from './ids';
import { materialize, parseJsonBody, RawString, type Unchecked } from './json-body';
import { describeJson, fieldName } from './json-text';
import { isTextRank, parseRankExpr, type RankExpr } from './rank-expr';
import { parseDistanceMetric, UNSUPPORTED_NAME, unsupportedName } from './schema';
import { vectorDims, writeVector } from './vectors';

export type RankBy =
  | { kind: 'vector'; mode: 'ann' | 'knn'; column: string; vector: Float32Array }
  | { kind: 'order'; keys: { attr: string; desc: boolean }[] }
  /** A full-text rank expression: `raw` as sent, `expr` once checked against the schema (readQueryBody). */
  | { kind: 'text'; raw: unknown; expr: RankExpr | null };

/** A multi-query's `rerank_by: ["RRF", {rank_constant, weights}]`. */
export interface Rerank {
  rankConstant: number;
  /** One per sub-query. */
  weights: number[];
}

export interface AggregateSpec {
  label: string;
  fn: AggregateFunction[0];
  /** Count of an attribute counts non-null values; Sum needs one. */
  attr: string | null;
}

export interface GroupKey {
  /** Name in the result object. */
  label: string;
  attr: string;
}

/** One query; `Filters` is the filter as parsed: a FilterNode tree, or `unknown` JSON before the schema check. */
export interface QuerySpec<Filters = FilterNode> {
  /** null: a lookup (matching documents by id) or an aggregation. */
  rankBy: RankBy | null;
  /** top_k / limit.total; null when the request gave none (rows default to 10, groups to 10,000). */
  topK: number | null;
  /** Ranked rows skipped before the first one returned (`offset`); 0 when absent. */
  offset: number;
  per: { attributes: string[]; limit: number } | null;
  filters: Filters | undefined;
  /** true: every attribute; a list: those (id is always returned). */
  include: true | string[];
  exclude: string[] | null;
  aggregates: AggregateSpec[] | null;
  groupBy: GroupKey[] | null;
  /** `disable_cache: true`: read around the cache, paying object storage as a cold query does. */
  disableCache: boolean;
}

export interface QueryRequest<Filters = FilterNode> {
  queries: QuerySpec<Filters>[];
  multi: boolean;
  consistency: Consistency;
  vectorEncoding: VectorEncoding;
  /** Multi-query fusion; null: one result per sub-query. */
  rerank: Rerank | null;
  /** With `rerank`: the fused rows to skip and return (null: all). */
  fusedOffset: number;
  fusedLimit: number | null;
}

/** RRF's rank constant when the request gives none. */
const DEFAULT_RANK_CONSTANT = 60;

const MAX_TOP_K = 10_000;
/** The emulator's bound on `offset` (the service publishes none): the engine gathers offset + top_k candidates. */
const MAX_OFFSET = 10_000;
export const DEFAULT_TOP_K = 10;
const MAX_SUB_QUERIES = 16;
/** Aggregation groups turbopuffer returns at most. */
export const MAX_GROUPS = 10_000;

const QUERY_FIELDS: ReadonlySet<string> = new Set<keyof QueryFields>([
  'rank_by',
  'top_k',
  'limit',
  'offset',
  'filters',
  'include_attributes',
  'exclude_attributes',
  'aggregate_by',
  'group_by',
  'distance_metric',
  'disable_cache',
]);
const ROOT_FIELDS: ReadonlySet<string> = new Set<keyof QueryRequestFields>([
  'consistency',
  'vector_encoding',
  'queries',
  'rerank_by',
  'limit',
  'offset',
]);

function queryVector(raw: unknown, field: string): Float32Array {
  if (typeof raw === 'string' || raw instanceof RawString) {
    const dims = vectorDims(raw, field) as number;
    const out = new Float32Array(dims);
    writeVector(raw, dims, out, 0, field);
    return out;
  }
  if (!Array.isArray(raw) || raw.length === 0)
    throw badRequest(`${field}: expected a query vector (array of numbers)`);
  if (Array.isArray(raw[0]))
    throw badRequest(`${field}: multi-vector queries are not supported by the emulator`);
  const out = new Float32Array(raw.length);
  writeVector(raw, raw.length, out, 0, field);
  return out;
}

function orderKey(raw: unknown, field: string): { attr: string; desc: boolean } | null {
  if (
    Array.isArray(raw) &&
    raw.length === 2 &&
    typeof raw[0] === 'string' &&
    (raw[1] === 'asc' || raw[1] === 'desc')
  )
    return { attr: raw[0], desc: raw[1] === 'desc' };
  if (Array.isArray(raw) && raw.length === 2 && typeof raw[0] === 'string' && typeof raw[1] === 'string')
    throw badRequest(`${field}: unknown ordering ${describeJson(raw[1])}; use "asc" or "desc"`);
  return null;
}

export function parseRankBy(raw: unknown, field = 'rank_by'): RankBy {
  if (!Array.isArray(raw) || raw.length === 0)
    throw badRequest(`${field}: expected e.g. ["vector", "ANN", [...]] or ["attr", "asc"]`);
  // Before the ordering check: ["Attribute", "price"] is a rank expression, not an unknown order of an attribute
  // called Attribute (which ["Attribute", "asc"] still is).
  if (isTextRank(raw)) return { kind: 'text', raw, expr: null };
  const single = orderKey(raw, field);
  if (single) return { kind: 'order', keys: [single] };
  if (raw.every((k) => Array.isArray(k))) {
    const keys = raw.map((k, i) => orderKey(k, `${field}[${i}]`));
    if (keys.every((k) => k !== null))
      return { kind: 'order', keys: keys as { attr: string; desc: boolean }[] };
  }
  const [attr, fn, arg] = raw;
  if (typeof attr === 'string' && (fn === 'ANN' || fn === 'kNN')) {
    if (raw.length !== 3) throw badRequest(`${field}: ${fn} expects ["${attr}", "${fn}", [query vector]]`);
    if (Array.isArray(arg) && arg[0] === 'Embed')
      throw badRequest(
        `${field}[2]: server-side embedding (["Embed", ...]) is not implemented by the emulator; send the query vector`,
      );
    return {
      kind: 'vector',
      mode: fn === 'ANN' ? 'ann' : 'knn',
      column: attr,
      vector: queryVector(arg, `${field}[2]`),
    };
  }
  if (fn === 'SparseKNN')
    throw badRequest(`${field}: SparseKNN ranking is not modelled by the emulator (no sparse vector index)`);
  throw badRequest(`${field}: unknown ranking ${describeJson(raw, 80)}`);
}

function stringList(raw: unknown, field: string): string[] {
  if (!Array.isArray(raw) || raw.some((x) => typeof x !== 'string'))
    throw badRequest(`${field}: expected a list of attribute names`);
  return raw as string[];
}

/** `value` when it is a whole number in [min, max], else a 400 naming `field` and what it got. */
export function wholeNumberIn(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw badRequest(`${field}: expected a whole number from ${min} to ${max}, got ${describeJson(value)}`);
  return value;
}

function parseLimit(body: Unchecked<QueryFields>, field: string): Pick<QuerySpec, 'topK' | 'per'> {
  const { top_k: topK, limit } = body;
  if (topK !== undefined && limit !== undefined)
    throw badRequest(`${field}top_k: use top_k or limit, not both`);
  const total = (value: unknown, name: string): number => wholeNumberIn(value, name, 1, MAX_TOP_K);
  if (topK !== undefined && topK !== null) return { topK: total(topK, `${field}top_k`), per: null };
  if (limit === undefined || limit === null) return { topK: null, per: null };
  if (typeof limit === 'number') return { topK: total(limit, `${field}limit`), per: null };
  if (typeof limit !== 'object' || Array.isArray(limit))
    throw badRequest(`${field}limit: expected a number or {"total": n}`);
  const l = limit as Record<string, unknown>;
  let per: QuerySpec['per'] = null;
  if (l.per !== undefined && l.per !== null) {
    const p = l.per as Record<string, unknown>;
    per = {
      attributes: stringList(p.attributes, `${field}limit.per.attributes`),
      limit: total(p.limit, `${field}limit.per.limit`),
    };
  }
  return { topK: total(l.total, `${field}limit.total`), per };
}

function parseOffset(raw: unknown, ranked: boolean, prefix: string): number {
  if (raw === undefined || raw === null) return 0;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0 || raw > MAX_OFFSET)
    throw badRequest(
      `${prefix}offset: expected a whole number from 0 to ${MAX_OFFSET}, got ${describeJson(raw)}`,
    );
  if (!ranked) throw badRequest(`${prefix}offset: needs rank_by and top_k (or limit)`);
  return raw;
}

function parseAggregates(raw: unknown, field: string): AggregateSpec[] {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest(`${field}: expected {"label": ["Count"]}`);
  return Object.entries(raw).map(([label, spec]) => {
    if (label === UNSUPPORTED_NAME) unsupportedName(`${field}.${label}`, 'aggregation');
    if (Array.isArray(spec) && spec[0] === 'Count' && spec.length === 1)
      return { label, fn: 'Count' as const, attr: null };
    if (
      Array.isArray(spec) &&
      (spec[0] === 'Count' || spec[0] === 'Sum') &&
      spec.length === 2 &&
      typeof spec[1] === 'string'
    )
      return { label, fn: spec[0] as AggregateSpec['fn'], attr: spec[1] };
    throw badRequest(`${field}.${label}: expected ["Count"], ["Count", "attr"] or ["Sum", "attr"]`);
  });
}

function parseGroupBy(raw: unknown, field: string): GroupKey[] {
  if (!Array.isArray(raw) || raw.length === 0)
    throw badRequest(`${field}: expected a list of attribute names`);
  return raw.map((key, i) => {
    if (key === UNSUPPORTED_NAME) unsupportedName(`${field}[${i}]`, 'attribute');
    if (typeof key === 'string') return { label: key, attr: key };
    if (key && typeof key === 'object' && !Array.isArray(key)) {
      const [label, fn] = Object.entries(key)[0] ?? [];
      if (label === UNSUPPORTED_NAME) unsupportedName(`${field}[${i}].${label}`, 'group');
      if (Array.isArray(fn) && fn[0] === 'ForEachUnique' && typeof fn[1] === 'string')
        return { label: label as string, attr: fn[1] };
    }
    throw badRequest(`${field}[${i}]: expected an attribute name or {"name": ["ForEachUnique", "attr"]}`);
  });
}

function parseQuerySpec(
  body: Unchecked<QueryFields>,
  prefix: string,
  allowed: ReadonlySet<string>,
): QuerySpec<unknown> {
  for (const key of Object.keys(body)) {
    if (!allowed.has(key)) {
      if (key === 'compute_attributes') throw badRequest(`${prefix}${key}: not supported by the emulator`);
      if (key === 'rerank_by')
        throw badRequest(
          `${prefix}rerank_by: reranking with a model is not supported by the emulator (it serves ["RRF"] fusion of a multi-query's sub-queries)`,
        );
      throw badRequest(`${prefix}${fieldName(key)}: unknown field in a query`);
    }
  }
  if (body.distance_metric !== undefined && body.distance_metric !== null)
    parseDistanceMetric(body.distance_metric, `${prefix}distance_metric`);
  const aggregates =
    body.aggregate_by === undefined || body.aggregate_by === null
      ? null
      : parseAggregates(materialize(body.aggregate_by, `${prefix}aggregate_by`), `${prefix}aggregate_by`);
  const groupBy =
    body.group_by === undefined || body.group_by === null
      ? null
      : parseGroupBy(materialize(body.group_by, `${prefix}group_by`), `${prefix}group_by`);
  if (groupBy && !aggregates) throw badRequest(`${prefix}group_by: needs aggregate_by`);
  if (aggregates && body.rank_by !== undefined && body.rank_by !== null)
    throw badRequest(`${prefix}aggregate_by: cannot be combined with rank_by`);
  if (aggregates && body.include_attributes !== undefined && body.include_attributes !== null)
    throw badRequest(`${prefix}aggregate_by: cannot be combined with include_attributes`);
  if (body.include_attributes !== undefined && body.exclude_attributes !== undefined)
    throw badRequest(`${prefix}include_attributes: cannot be combined with exclude_attributes`);
  let include: QuerySpec['include'] = [];
  const rawInclude = body.include_attributes;
  if (rawInclude === true) include = true;
  else if (rawInclude !== undefined && rawInclude !== null && rawInclude !== false)
    include = stringList(rawInclude, `${prefix}include_attributes`);
  const exclude =
    body.exclude_attributes === undefined || body.exclude_attributes === null
      ? null
      : stringList(body.exclude_attributes, `${prefix}exclude_attributes`);
  const rankBy =
    body.rank_by === undefined || body.rank_by === null
      ? null
      : parseRankBy(body.rank_by, `${prefix}rank_by`);
  const disableCache = body.disable_cache ?? false;
  if (typeof disableCache !== 'boolean')
    throw badRequest(`${prefix}disable_cache: expected true or false, got ${describeJson(disableCache)}`);
  const { topK, per } = parseLimit(body, prefix);
  if (per && rankBy?.kind !== 'order')
    throw badRequest(`${prefix}limit.per: only works with ordering by attributes`);
  return {
    rankBy,
    topK,
    offset: parseOffset(body.offset, rankBy !== null && topK !== null, prefix),
    per,
    filters: body.filters === null ? undefined : materialize(body.filters, `${prefix}filters`),
    include: exclude ? true : include,
    exclude,
    aggregates,
    groupBy,
    disableCache,
  };
}

/** Parses a query body already decoded by parseJsonBody; its filters stay JSON (readQueryBody checks them). */
export function parseQueryRequest(raw: unknown): QueryRequest<unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest('request body: expected a JSON object');
  const body = raw as Unchecked<QueryRequestFields>;
  const consistency = materialize(body.consistency, 'consistency') as
    | Unchecked<NonNullable<QueryRequestFields['consistency']>>
    | undefined
    | null;
  let level: QueryRequest['consistency'] = 'strong';
  if (consistency !== undefined && consistency !== null) {
    if (
      typeof consistency !== 'object' ||
      (consistency.level !== undefined && consistency.level !== 'strong' && consistency.level !== 'eventual')
    )
      throw badRequest('consistency: expected {"level": "strong"} or {"level": "eventual"}');
    if (consistency.level === 'eventual') level = 'eventual';
    // max_staleness_seconds (Python SDK 3.x) bounds how old an eventual view may be. Checked, not enforced: the
    // emulator bounds its eventual view by bytes (--eventual-tail-limit), not by age.
    for (const [key, value] of Object.entries(consistency)) {
      if (key === 'level') continue;
      if (key !== 'max_staleness_seconds' || level !== 'eventual')
        throw badRequest(
          `consistency.${fieldName(key)}: unknown field (eventual queries take max_staleness_seconds)`,
        );
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
        throw badRequest(
          `consistency.max_staleness_seconds: expected a whole number of seconds, got ${describeJson(value)}`,
        );
    }
  }
  const encoding = body.vector_encoding ?? 'float';
  if (encoding !== 'float' && encoding !== 'base64')
    throw badRequest('vector_encoding: expected "float" or "base64"');
  const common = {
    consistency: level,
    vectorEncoding: encoding as VectorEncoding,
    rerank: null,
    fusedOffset: 0,
    fusedLimit: null,
  };
  if (body.queries === undefined) {
    const allowed = new Set([...QUERY_FIELDS, 'consistency', 'vector_encoding']);
    return { ...common, multi: false, queries: [parseQuerySpec(body, '', allowed)] };
  }
  for (const key of Object.keys(body)) {
    if (!ROOT_FIELDS.has(key))
      throw badRequest(`${key}: not allowed beside "queries" (put it in each sub-query)`);
  }
  const queries = body.queries;
  if (!Array.isArray(queries) || queries.length === 0 || queries.length > MAX_SUB_QUERIES)
    throw badRequest(`queries: expected 1 to ${MAX_SUB_QUERIES} sub-queries`);
  const specs = queries.map((q, i) => {
    if (!q || typeof q !== 'object' || Array.isArray(q))
      throw badRequest(`queries[${i}]: expected an object`);
    return parseQuerySpec(q as Unchecked<QueryFields>, `queries[${i}].`, QUERY_FIELDS);
  });
  const rerank = parseRerank(materialize(body.rerank_by, 'rerank_by'), specs.length);
  const rawLimit = materialize(body.limit, 'limit');
  const hasLimit = rawLimit !== undefined && rawLimit !== null;
  const hasOffset = body.offset !== undefined && body.offset !== null;
  if (!rerank && (hasLimit || hasOffset))
    throw badRequest(
      `${hasLimit ? 'limit' : 'offset'}: beside "queries" it needs rerank_by (it limits the fused rows)`,
    );
  if (rerank) {
    const unranked = specs.findIndex((q) => q.aggregates !== null);
    if (unranked >= 0)
      throw badRequest(
        `queries[${unranked}].aggregate_by: rerank_by fuses ranked rows; a sub-query cannot aggregate`,
      );
  }
  let fusedLimit: number | null = null;
  if (hasLimit) {
    const total =
      typeof rawLimit === 'object' && !Array.isArray(rawLimit)
        ? (rawLimit as Record<string, unknown>).total
        : rawLimit;
    if (typeof rawLimit === 'object' && !Array.isArray(rawLimit)) {
      const extra = Object.keys(rawLimit as object).find((k) => k !== 'total');
      if (extra !== undefined) throw badRequest(`limit.${fieldName(extra)}: unknown field (it takes total)`);
    }
    fusedLimit = wholeNumberIn(total, typeof rawLimit === 'number' ? 'limit' : 'limit.total', 1, MAX_TOP_K);
  }
  if (hasOffset && fusedLimit === null) throw badRequest('offset: needs rerank_by and limit');
  const fusedOffset = hasOffset ? wholeNumberIn(body.offset, 'offset', 0, MAX_OFFSET) : 0;
  return { ...common, multi: true, queries: specs, rerank, fusedLimit, fusedOffset };
}

/** `rerank_by` of a multi-query: ["RRF"] or ["RRF", {rank_constant, weights}], or null when absent. */
function parseRerank(raw: unknown, subQueries: number): Rerank | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw)) {
    if (typeof raw === 'object' && raw !== null && 'model' in raw)
      throw badRequest(
        'rerank_by: reranking with a model is not supported by the emulator (it serves ["RRF"] and ["RRF", {...}])',
      );
    throw badRequest(
      `rerank_by: expected ["RRF"] or ["RRF", {"rank_constant": k, "weights": [...]}], got ${describeJson(raw, 60)}`,
    );
  }
  if (raw[0] !== 'RRF' || raw.length > 2)
    throw badRequest(
      `rerank_by: expected ["RRF"] or ["RRF", {"rank_constant": k, "weights": [...]}], got ${describeJson(raw, 60)}`,
    );
  const params = raw[1] ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw badRequest(
      `rerank_by[1]: expected {"rank_constant": k, "weights": [...]}, got ${describeJson(params, 60)}`,
    );
  const { rank_constant: k, weights, ...rest } = params as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    throw badRequest(`rerank_by[1].${fieldName(extra)}: unknown field (RRF takes rank_constant and weights)`);
  let rankConstant = DEFAULT_RANK_CONSTANT;
  if (k !== undefined && k !== null) {
    if (typeof k !== 'number' || !Number.isInteger(k) || k < 1)
      throw badRequest(
        `rerank_by[1].rank_constant: expected a whole number greater than zero, got ${describeJson(k)}`,
      );
    rankConstant = k;
  }
  let w: number[] = new Array(subQueries).fill(1);
  if (weights !== undefined && weights !== null) {
    if (
      !Array.isArray(weights) ||
      weights.some((x) => typeof x !== 'number' || !Number.isFinite(x) || x <= 0)
    )
      throw badRequest(
        `rerank_by[1].weights: expected a list of positive numbers, got ${describeJson(weights, 60)}`,
      );
    if (weights.length !== subQueries)
      throw badRequest(
        `rerank_by[1].weights: has ${weights.length} weights for ${subQueries} sub-queries; give one per sub-query`,
      );
    w = weights as number[];
  }
  return { rankConstant, weights: w };
}

/**
 * A query body -> a QueryRequest whose id filters are exact: parsed once, and again with exact integers only when
 * a filter compares with an integer above 2^53 (the only place a query carries ids). Filters stay JSON.
 */
export function readQueryJson(body: Buffer): QueryRequest<unknown> {
  const request = parseQueryRequest(parseJsonBody(body));
  if (!request.queries.some((q) => holdsRoundedInteger(q.filters))) return request;
  return parseQueryRequest(parseJsonBody(body, { exactIntegers: true }));
}

/**
 * A query body -> a QueryRequest with every filter a tree checked against `schema` (the namespace's). The filters
 * are checked after the rest of the body, each sub-query in turn, so a body with several problems gets the 400 it
 * got when filters were checked as the query ran.
 */
export function readQueryBody(body: Buffer, schema: FilterSchema): QueryRequest {
  const request = readQueryJson(body);
  return {
    ...request,
    queries: request.queries.map((q, i) => {
      const prefix = request.multi ? `queries[${i}].` : '';
      const rankBy: RankBy | null =
        q.rankBy?.kind === 'text'
          ? { ...q.rankBy, expr: parseRankExpr(q.rankBy.raw, schema, `${prefix}rank_by`) }
          : q.rankBy;
      return {
        ...q,
        rankBy,
        filters: q.filters === undefined ? undefined : parseFilter(q.filters, schema, 'filters'),
      };
    }),
  };
}

/** Query slots a request takes at the namespace's concurrency gate: kNN 2, aggregations 4, others 1. */
export function querySlots(req: QueryRequest<unknown>): number {
  return req.queries.reduce(
    (sum, q) => sum + (q.aggregates ? 4 : q.rankBy?.kind === 'vector' && q.rankBy.mode === 'knn' ? 2 : 1),
    0,
  );
}
