// Inverted indexes of full-text attributes over the indexed rows: term -> the rows holding it and how often, plus
// each row's length in terms (BM25's document length). Built incrementally by the indexer beside the attribute
// postings; like them they only grow (rows are immutable versions) and dead rows are skipped at query time. A
// change of an attribute's full-text settings rebuilds its index from row 0 at the next indexing batch; until then
// queries analyze every row of it as they do the unindexed tail. (k1 and b only score: changing them keeps the index.)

import { analyzerFor } from '../text/analyzer';
import { type FtsConfig, sameAnalysis } from '../text/config';
import type { StoredValue } from '../wire/values';

interface Postings {
  rows: number[];
  /** Occurrences of the term in each row of `rows`. */
  tfs: number[];
}

export interface TextPostings {
  config: FtsConfig;
  /** Rows [0, rows) are indexed. */
  rows: number;
  terms: Map<string, Postings>;
  /** Terms per row (0 where the row has no value). */
  lengths: number[];
  /** Rows of [0, rows) with at least one term, and their terms in all: BM25's document count and mean length. */
  docs: number;
  totalLength: number;
  /** The terms in code-unit order, for prefix look-ups; null when terms changed since it was built. */
  sorted: string[] | null;
}

export interface TextIndexSource {
  attributes: ReadonlyMap<string, StoredValue[]>;
}

export class FtsIndex {
  private readonly byAttr = new Map<string, TextPostings>();

  /** Extends the index of each full-text attribute to rows [0, to). */
  addRows(to: number, source: TextIndexSource, attributes: Iterable<[string, FtsConfig]>): void {
    for (const [name, config] of attributes) {
      let index = this.byAttr.get(name);
      if (!index || !sameAnalysis(index.config, config)) {
        index = { config, rows: 0, terms: new Map(), lengths: [], docs: 0, totalLength: 0, sorted: null };
        this.byAttr.set(name, index);
      } else index.config = config;
      if (index.rows >= to) continue;
      const column = source.attributes.get(name);
      const analyzer = analyzerFor(config);
      for (let row = index.rows; row < to; row++) {
        const value = column?.[row];
        const terms = value === undefined || value === null ? [] : analyzer.valueTerms(value);
        index.lengths[row] = terms.length;
        if (terms.length === 0) continue;
        index.docs++;
        index.totalLength += terms.length;
        const counts = new Map<string, number>();
        for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
        for (const [term, tf] of counts) {
          let postings = index.terms.get(term);
          if (!postings) {
            postings = { rows: [], tfs: [] };
            index.terms.set(term, postings);
            index.sorted = null;
          }
          postings.rows.push(row);
          postings.tfs.push(tf);
        }
      }
      index.rows = to;
    }
  }

  /** The fewest rows any of `attributes` has indexed with its settings (where the next batch starts). */
  coveredRows(attributes: Iterable<[string, FtsConfig]>): number {
    let rows = Number.POSITIVE_INFINITY;
    for (const [name, config] of attributes) rows = Math.min(rows, this.postings(name, config)?.rows ?? 0);
    return rows === Number.POSITIVE_INFINITY ? 0 : rows;
  }

  /** Forgets an attribute's index (dropped, or no longer full-text). */
  drop(name: string): void {
    this.byAttr.delete(name);
  }

  /** The index of `name` when it was built with `config`'s analysis, else null (queries then analyze every row). */
  postings(name: string, config: FtsConfig): TextPostings | null {
    const index = this.byAttr.get(name);
    return index && sameAnalysis(index.config, config) ? index : null;
  }
}

/** Indexed terms that start with `prefix`, by binary search over the sorted dictionary. */
export function termsWithPrefix(index: TextPostings, prefix: string): string[] {
  if (!index.sorted) index.sorted = [...index.terms.keys()].sort();
  const sorted = index.sorted;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < sorted.length && sorted[i].startsWith(prefix); i++) out.push(sorted[i]);
  return out;
}
