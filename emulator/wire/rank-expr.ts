// Full-text rank expressions (lib/turbopuffer-wire.ts `TextRank`) -> a typed tree checked against the namespace's
// schema: BM25 clauses analyzed with their attribute's settings, Sum / Max / Product combinators, attribute values
// and filters (1 where they match). Saturate, Decay and Dist are refused: the documentation the emulator follows
// names them but gives no formula to reproduce.
import type { TextRank } from '../../lib/turbopuffer-wire';
import { badRequest } from '../api-error';
import {
  type FilterNode,
  type FilterSchema,
  isFilterOperator,
  parseFilter,
  parseTextParams,
} from '../filters/parse';
import { analyzerFor } from '../text/analyzer';
import type { TextQuery } from '../text/match';
import { describeJson } from './json-text';

export type RankExpr =
  | { op: 'bm25'; attr: string; query: TextQuery }
  | { op: 'sum' | 'max'; children: RankExpr[] }
  | { op: 'product'; weight: number; child: RankExpr }
  | { op: 'attribute'; attr: string }
  | { op: 'filter'; filter: FilterNode };

/** Rank functions that open an expression: ["Sum", [...]], ["Attribute", "price"], ... */
const RANK_FUNCTIONS = ['Sum', 'Max', 'Product', 'Saturate', 'Decay', 'Dist', 'Attribute'] as const;
const UNMODELLED = new Set(['Saturate', 'Decay', 'Dist']);

/** Whether a rank_by value is a full-text rank expression (as opposed to vector ranking or attribute order). */
export function isTextRank(raw: unknown): boolean {
  if (!Array.isArray(raw) || raw.length < 2) return false;
  const [head, second] = raw;
  if (second === 'asc' || second === 'desc') return false;
  if ((RANK_FUNCTIONS as readonly unknown[]).includes(head)) return true;
  if (second === 'BM25') return true;
  return (
    head === 'And' ||
    head === 'Or' ||
    head === 'Not' ||
    (typeof head === 'string' && isFilterOperator(second))
  );
}

/** Parses a rank expression; `field` names it in 400s ("rank_by", "queries[1].rank_by[1][0]"). */
export function parseRankExpr(raw: unknown, schema: FilterSchema, field: string): RankExpr {
  if (!Array.isArray(raw) || raw.length < 2)
    throw badRequest(
      `${field}: expected a rank expression such as ["text", "BM25", "query"] or ["Sum", [...]]`,
    );
  const [head, second] = raw as [unknown, unknown, ...unknown[]];
  if (typeof head === 'string' && UNMODELLED.has(head))
    throw badRequest(
      `${field}: ${head} is not modelled by the emulator (the public documentation gives no formula for it); rank with BM25, Sum, Max, Product, Attribute or a filter`,
    );
  if (head === 'Sum' || head === 'Max') {
    if (raw.length !== 2 || !Array.isArray(second) || second.length === 0)
      throw badRequest(
        `${field}: ${head} expects ["${head}", [expression, ...]] with at least one expression`,
      );
    return {
      op: head === 'Sum' ? 'sum' : 'max',
      children: second.map((child, i) => parseRankExpr(child, schema, `${field}[1][${i}]`)),
    };
  }
  if (head === 'Product') return parseProduct(raw, schema, field);
  if (head === 'Attribute') {
    if (raw.length !== 2 || typeof second !== 'string')
      throw badRequest(`${field}: Attribute expects ["Attribute", "attribute name"]`);
    const spec = schema.attribute(second);
    if (spec && (spec.type.kind !== 'scalar' || !['int', 'uint', 'float'].includes(spec.type.scalar)))
      throw badRequest(
        `${field}: Attribute ranks by numeric attributes (int, uint, float); ${second} is not one`,
      );
    return { op: 'attribute', attr: second };
  }
  if (second === 'BM25') return parseBm25(raw, schema, field);
  return { op: 'filter', filter: parseFilter(raw as TextRank, schema, field) };
}

function parseProduct(raw: unknown[], schema: FilterSchema, field: string): RankExpr {
  // ["Product", w, expr], ["Product", expr, w], and the older documentation's ["Product", [w, expr]].
  const args = raw.length === 2 && Array.isArray(raw[1]) && raw[1].length === 2 ? raw[1] : raw.slice(1);
  if (args.length === 2) {
    const [a, b] = args;
    const weightAt = typeof a === 'number' ? 0 : typeof b === 'number' ? 1 : -1;
    const weight = args[weightAt];
    if (weightAt >= 0 && typeof weight === 'number' && Number.isFinite(weight))
      return {
        op: 'product',
        weight,
        child: parseRankExpr(args[1 - weightAt], schema, `${field}[${weightAt === 0 ? 2 : 1}]`),
      };
  }
  throw badRequest(
    `${field}: Product expects ["Product", weight, expression] or ["Product", expression, weight]`,
  );
}

function parseBm25(raw: unknown[], schema: FilterSchema, field: string): RankExpr {
  const [attr, , input, params] = raw;
  if (typeof attr !== 'string' || (raw.length !== 3 && raw.length !== 4))
    throw badRequest(
      `${field}: BM25 expects ["attribute", "BM25", "query text"] or with {"last_as_prefix": true}`,
    );
  const config = schema.attribute(attr)?.fullTextSearch;
  if (!config)
    throw badRequest(
      `${field}: attribute ${describeJson(attr)} has no full-text index; declare it with "full_text_search": true in the schema`,
    );
  const analyzer = analyzerFor(config);
  const strings = Array.isArray(input) && input.every((v) => typeof v === 'string');
  if (analyzer.preTokenized ? !strings : typeof input !== 'string' && !strings)
    throw badRequest(
      `${field}: invalid input ${describeJson(input, 60)} for rank_by field "${attr}", expecting ${analyzer.preTokenized ? '[]string' : 'string'}`,
    );
  const lastAsPrefix = parseTextParams(params, `${field}[3]`);
  return { op: 'bm25', attr, query: { config, ...analyzer.query(input as string | string[], lastAsPrefix) } };
}
