// Full-text ranking over a read view: BM25 for each clause of a rank expression, from the attribute's inverted index
// for the indexed rows and from the rows' own text for the rest (the unindexed tail, or every row while an index is
// rebuilt after a settings change), then Sum / Max / Product, attribute values and filter terms.
//
// BM25, per clause and document d (docs/turbopuffer-api.md §3.2):
//   score(d) = sum over distinct query terms t of  idf(t) * tf(t,d) * (k1 + 1) / (tf(t,d) + k1 * (1 - b + b * |d| / avgdl))
//                                                  * (k3 + 1) * qtf(t) / (k3 + qtf(t))
//   idf(t)   = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
// N: live documents of the view with at least one term in the attribute; n(t): those holding t; |d|: d's terms;
// avgdl: the mean |d| over those N; qtf(t): t's occurrences in the query; k3 = 8. A `last_as_prefix` token counts as
// one term whose occurrences are those of every term that starts with it.
import { filterBitset } from '../filters/candidates';
import { termsWithPrefix } from '../index/fts-index';
import type { Namespace, ReadView } from '../namespace/namespace';
import { analyzerFor } from '../text/analyzer';
import type { FtsConfig } from '../text/config';
import { hasBit } from '../vector/bitset';
import type { RowBitset } from '../vector/types';
import type { RankExpr } from '../wire/rank-expr';

/** BM25's query-term saturation constant (the service reports k3 = 8; the SDK does not let it be set). */
const BM25_K3 = 8;

/** Rows a rank expression matches, with their scores. */
export type Scores = Map<number, number>;

interface Context {
  ns: Namespace;
  view: ReadView;
  /** Terms of rows no index covers, per attribute (each row analyzed once per query). */
  tails: Map<string, { from: number; terms: (string[] | null)[] }>;
}

export function scoreRankExpr(ns: Namespace, view: ReadView, expr: RankExpr): Scores {
  return score({ ns, view, tails: new Map() }, expr);
}

function score(ctx: Context, expr: RankExpr): Scores {
  switch (expr.op) {
    case 'bm25':
      return bm25(ctx, expr);
    case 'sum':
    case 'max': {
      const out: Scores = new Map();
      for (const child of expr.children)
        for (const [row, value] of score(ctx, child)) {
          const seen = out.get(row);
          out.set(row, seen === undefined ? value : expr.op === 'sum' ? seen + value : Math.max(seen, value));
        }
      return out;
    }
    case 'product': {
      const out = score(ctx, expr.child);
      for (const [row, value] of out) out.set(row, value * expr.weight);
      return out;
    }
    case 'attribute': {
      const out: Scores = new Map();
      const column = ctx.ns.store.attributes.get(expr.attr);
      if (!column) return out;
      for (let row = 0; row < ctx.view.rows; row++) {
        const value = column[row];
        if (typeof value === 'number' && !hasBit(ctx.view.dead, row)) out.set(row, value);
      }
      return out;
    }
    case 'filter': {
      const { ns, view } = ctx;
      const bits = filterBitset(expr.filter, {
        rows: view.rows,
        indexedRows: view.indexedRows,
        dead: view.dead,
        index: ns.attributeIndex,
        fts: ns.ftsIndex,
        source: ns.store.source,
      });
      const out: Scores = new Map();
      for (let row = 0; row < view.rows; row++)
        if (hasBit(bits, row) && !hasBit(view.dead, row)) out.set(row, 1);
      return out;
    }
  }
}

function bm25(ctx: Context, clause: Extract<RankExpr, { op: 'bm25' }>): Scores {
  const { ns, view } = ctx;
  const { config, terms, prefix } = clause.query;
  const scores: Scores = new Map();
  if (terms.length === 0 && prefix === null) return scores;
  const index = ns.ftsIndex.postings(clause.attr, config);
  const indexed = index ? Math.min(index.rows, view.rows) : 0;
  const tail = tailTerms(ctx, clause.attr, indexed, config);
  const live = (row: number) => !hasBit(view.dead, row);

  const length = (row: number): number =>
    row < indexed ? (index?.lengths[row] ?? 0) : (tail.terms[row - tail.from]?.length ?? 0);
  let docs = 0;
  let totalLength = 0;
  if (index && index.rows === indexed) {
    // The index's totals less its dead rows: a pass over the dead set, not over every row.
    docs = index.docs;
    totalLength = index.totalLength;
    forEachSetBit(view.dead, indexed, (row) => {
      const n = index.lengths[row];
      if (n > 0) {
        docs--;
        totalLength -= n;
      }
    });
  } else
    for (let row = 0; row < indexed; row++) {
      const n = live(row) ? length(row) : 0;
      if (n > 0) {
        docs++;
        totalLength += n;
      }
    }
  for (const rowTerms of tail.terms)
    if (rowTerms && rowTerms.length > 0) {
      docs++;
      totalLength += rowTerms.length;
    }
  if (docs === 0) return scores;
  const avgLength = totalLength / docs;

  // Each query term (and the prefix) -> row -> occurrences.
  const qtf = new Map<string, number>();
  for (const term of terms) qtf.set(term, (qtf.get(term) ?? 0) + 1);
  const clauses: { weight: number; tf: Map<number, number> }[] = [];
  for (const [term, count] of qtf) {
    const tf = new Map<number, number>();
    const postings = index?.terms.get(term);
    if (postings)
      for (let i = 0; i < postings.rows.length; i++) {
        const row = postings.rows[i];
        if (row < indexed && live(row)) tf.set(row, postings.tfs[i]);
      }
    tail.terms.forEach((rowTerms, i) => {
      if (!rowTerms) return;
      let n = 0;
      for (const t of rowTerms) if (t === term) n++;
      if (n > 0) tf.set(tail.from + i, n);
    });
    clauses.push({ weight: ((BM25_K3 + 1) * count) / (BM25_K3 + count), tf });
  }
  if (prefix !== null) {
    const tf = new Map<number, number>();
    if (index)
      for (const term of termsWithPrefix(index, prefix)) {
        const postings = index.terms.get(term);
        if (!postings) continue;
        for (let i = 0; i < postings.rows.length; i++) {
          const row = postings.rows[i];
          if (row < indexed && live(row)) tf.set(row, (tf.get(row) ?? 0) + postings.tfs[i]);
        }
      }
    tail.terms.forEach((rowTerms, i) => {
      if (!rowTerms) return;
      let n = 0;
      for (const t of rowTerms) if (t.startsWith(prefix)) n++;
      if (n > 0) tf.set(tail.from + i, n);
    });
    clauses.push({ weight: 1, tf });
  }

  const { k1, b } = config;
  for (const { weight, tf } of clauses) {
    const n = tf.size;
    if (n === 0) continue;
    const idf = Math.log(1 + (docs - n + 0.5) / (n + 0.5));
    for (const [row, f] of tf) {
      const norm = k1 * (1 - b + (b * length(row)) / avgLength);
      scores.set(row, (scores.get(row) ?? 0) + (idf * weight * f * (k1 + 1)) / (f + norm));
    }
  }
  return scores;
}

/** Calls `visit` with each set bit below `rows`. */
function forEachSetBit(bits: RowBitset, rows: number, visit: (row: number) => void): void {
  const words = Math.min(bits.length, Math.ceil(rows / 32));
  for (let w = 0; w < words; w++) {
    let word = bits[w];
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      const row = w * 32 + bit;
      if (row < rows) visit(row);
      word &= word - 1;
    }
  }
}

/** The terms of the live rows [from, view.rows) of an attribute (null: dead or no value). */
function tailTerms(
  ctx: Context,
  attr: string,
  from: number,
  config: FtsConfig,
): { from: number; terms: (string[] | null)[] } {
  const key = `${attr}\u0000${from}`;
  const cached = ctx.tails.get(key);
  if (cached) return cached;
  const { ns, view } = ctx;
  const column = ns.store.attributes.get(attr);
  const analyzer = analyzerFor(config);
  const terms: (string[] | null)[] = [];
  for (let row = from; row < view.rows; row++) {
    const value = column?.[row];
    terms.push(
      value !== undefined && value !== null && !hasBit(view.dead, row) ? analyzer.valueTerms(value) : null,
    );
  }
  const out = { from, terms };
  ctx.tails.set(key, out);
  return out;
}
