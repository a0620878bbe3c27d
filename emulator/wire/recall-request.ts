// A _debug/recall body (POST /v1/namespaces/:ns/_debug/recall) -> what to measure, or a 400 naming the field.
// The SDKs' recall() sends num, top_k, filters, include_ground_truth and rank_by; anything else is refused rather
// than ignored, so a misspelt or newer field cannot silently measure something other than what was asked.
import { badRequest } from '../api-error';
import { holdsRoundedInteger } from './ids';
import { materialize, parseJsonBody } from './json-body';
import { describeJson, fieldName } from './json-text';
import { parseRankBy, type RankBy, wholeNumberIn } from './query-request';

export const DEFAULT_RECALL_NUM = 25;
export const MAX_RECALL_NUM = 1000;
export const DEFAULT_RECALL_TOP_K = 10;
export const MAX_RECALL_TOP_K = 10_000;

const FIELDS = new Set(['num', 'top_k', 'filters', 'include_ground_truth', 'rank_by']);

export interface RecallRequest {
  /** Stored vectors sampled as queries; 1 when rank_by gives the query. */
  num: number;
  topK: number;
  /** Raw filter JSON (checked against the schema when the recall runs), or null. */
  filters: unknown;
  includeGroundTruth: boolean;
  /** The one query to measure (the SDKs' rank_by), instead of sampled stored vectors; null when absent. */
  rankBy: Extract<RankBy, { kind: 'vector' }> | null;
}

function wholeNumber(raw: unknown, field: string, min: number, max: number, fallback: number): number {
  return raw === undefined || raw === null ? fallback : wholeNumberIn(raw, field, min, max);
}

export function parseRecallRequest(raw: unknown): RecallRequest {
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

/** A recall body whose id filters are exact: read again with exact integers only when a filter needs them. */
export function readRecallBody(body: Buffer): RecallRequest {
  const request = parseRecallRequest(parseJsonBody(body));
  if (!holdsRoundedInteger(request.filters)) return request;
  return parseRecallRequest(parseJsonBody(body, { exactIntegers: true }));
}
