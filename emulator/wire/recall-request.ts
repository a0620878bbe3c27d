// A _debug/recall body (POST /v1/namespaces/:ns/_debug/recall) -> what to measure, or a 400 naming the field.
// The SDKs' recall() sends num, top_k, filters, include_ground_truth and rank_by; anything else is refused rather
// than ignored, so a misspelt or newer field cannot silently measure something other than what was asked.
import { badRequest } from '../api-error';
import { type FilterNode, type FilterSchema, parseFilter } from '../filters/parse';
import { holdsRoundedInteger } from './ids';
import { materialize, parseJsonBody } from './json-body';
import { describeJson, fieldName } from './json-text';
import { parseRankBy, type RankBy, wholeNumberIn } from './query-request';

const DEFAULT_RECALL_NUM = 25;
const MAX_RECALL_NUM = 1000;
const DEFAULT_RECALL_TOP_K = 10;
const MAX_RECALL_TOP_K = 10_000;

const FIELDS = new Set(['num', 'top_k', 'filters', 'include_ground_truth', 'rank_by']);

/** `Filters` is the filter as parsed: a FilterNode tree, or `unknown` JSON before the schema check. */
export interface RecallRequest<Filters = FilterNode> {
  /** Stored vectors sampled as queries; 1 when rank_by gives the query. */
  num: number;
  topK: number;
  /** The filter, or null. */
  filters: Filters | null;
  includeGroundTruth: boolean;
  /** The one query to measure (the SDKs' rank_by), instead of sampled stored vectors; null when absent. */
  rankBy: Extract<RankBy, { kind: 'vector' }> | null;
}

function wholeNumber(raw: unknown, field: string, min: number, max: number, fallback: number): number {
  return raw === undefined || raw === null ? fallback : wholeNumberIn(raw, field, min, max);
}

/** Parses a recall body already decoded by parseJsonBody; its filters stay JSON (readRecallBody checks them). */
export function parseRecallRequest(raw: unknown): RecallRequest<unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest('request body: expected a JSON object');
  const body = raw as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (!FIELDS.has(key))
      throw badRequest(
        `${fieldName(key)}: unknown field in a recall request (it takes ${[...FIELDS].join(', ')})`,
      );
  }
  let rankBy: RecallRequest['rankBy'] = null;
  if (body.rank_by !== undefined && body.rank_by !== null) {
    const rank = parseRankBy(body.rank_by);
    if (rank.kind !== 'vector')
      throw badRequest(
        'rank_by: recall is measured for a vector ranking, e.g. ["vector", "ANN", [0.1, 0.2]]',
      );
    rankBy = rank;
  }
  // With rank_by the query is given: one search, as the SDKs document ("num must be either null or 1").
  if (rankBy && body.num !== undefined && body.num !== null && body.num !== 1)
    throw badRequest(
      `num: rank_by gives the one query to measure, so num must be 1 or omitted, got ${describeJson(body.num)}`,
    );
  const num = rankBy ? 1 : wholeNumber(body.num, 'num', 1, MAX_RECALL_NUM, DEFAULT_RECALL_NUM);
  const topK = wholeNumber(body.top_k, 'top_k', 1, MAX_RECALL_TOP_K, DEFAULT_RECALL_TOP_K);
  const truth = body.include_ground_truth ?? false;
  if (typeof truth !== 'boolean')
    throw badRequest(`include_ground_truth: expected true or false, got ${describeJson(truth)}`);
  const filters = body.filters === undefined ? null : materialize(body.filters, 'filters');
  return { num, topK, filters, includeGroundTruth: truth, rankBy };
}

/**
 * A recall body whose filter is a tree checked against `schema` (the namespace's), its ids exact: the body is read
 * again with exact integers only when the filter needs them.
 */
export function readRecallBody(body: Buffer, schema: FilterSchema): RecallRequest {
  let request = parseRecallRequest(parseJsonBody(body));
  if (holdsRoundedInteger(request.filters))
    request = parseRecallRequest(parseJsonBody(body, { exactIntegers: true }));
  return {
    ...request,
    filters: request.filters === null ? null : parseFilter(request.filters, schema, 'filters'),
  };
}
