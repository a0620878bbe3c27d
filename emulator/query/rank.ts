// Ranking: ANN (index + exact scan of the view's unindexed tail), exact kNN, and ordering by attributes (multi-key,
// nulls first ascending, ties by id) with a bounded heap, so a top-10 over a million rows keeps ten candidates.
import { badRequest } from '../api-error';
import { attributeReader } from '../filters/evaluate';
import type { Namespace, ReadView } from '../namespace/namespace';
import { hasBit } from '../vector/bitset';
import type { Hit, RowBitset } from '../vector/types';
import { compareIds, type DocId } from '../wire/ids';
import { stringifyJson } from '../wire/json-text';
import type { RankBy } from '../wire/query-request';
import type { StoredValue } from '../wire/values';
import { mergeHits } from './merge';

export interface VectorRanking {
  hits: Hit[];
  /** Unindexed rows scanned exhaustively (performance.exhaustive_search_count). */
  exhaustive: number;
}

/** ANN or kNN over a view. `allow` restricts to filter candidates. */
export async function rankByVector(
  ns: Namespace,
  view: ReadView,
  rank: Extract<RankBy, { kind: 'vector' }>,
  k: number,
  allow: RowBitset | undefined,
): Promise<VectorRanking> {
  const spec = ns.schema.attribute(rank.column);
  if (spec?.type.kind !== 'vector') {
    if (spec) throw badRequest(`rank_by: attribute ${rank.column} is not a vector attribute`);
    if (view.rows === 0) return { hits: [], exhaustive: 0 };
    throw badRequest(`rank_by: the namespace has no vector attribute named ${rank.column}`);
  }
  if (rank.vector.length !== spec.type.dims)
    throw badRequest(
      `rank_by: query vector has ${rank.vector.length} dimensions, ${rank.column} has ${spec.type.dims}`,
    );
  const slot = ns.vectors.get(rank.column);
  if (!slot || view.rows === 0) return { hits: [], exhaustive: 0 };
  const dead = ns.deadFor(slot, view);
  const options = { k, dead, allow };
  const indexed = Math.min(view.indexedRows, slot.column.indexedRows);
  const tailFrom = rank.mode === 'ann' ? indexed : 0;
  const [index, tail] = await Promise.all([
    rank.mode === 'ann' && indexed > 0 ? slot.column.ann(rank.vector, options) : null,
    slot.column.scan(rank.vector, { from: tailFrom, to: view.rows }, options),
  ]);
  const hits = mergeHits(index ? [index.hits, tail.hits] : [tail.hits], k, view.rows);
  return { hits, exhaustive: view.rows - indexed };
}

type Key = { attr: string; desc: boolean };

function compareValues(a: StoredValue, b: StoredValue): number {
  // Nulls sort first ascending (they also match Lt), arrays compare by their first element.
  const x = Array.isArray(a) ? (a[0] ?? null) : a;
  const y = Array.isArray(b) ? (b[0] ?? null) : b;
  if (x === y) return 0;
  if (x === null) return -1;
  if (y === null) return 1;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  // Ids above 2^53 are BigInts: ordered by value among the numbers beside them.
  if (typeof x === 'bigint' || typeof y === 'bigint') return compareIds(x as DocId, y as DocId);
  return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
}

/** A row comparator for ordering keys (ties broken by id ascending). */
export function rowComparator(ns: Namespace, keys: readonly Key[]): (a: number, b: number) => number {
  const { store } = ns;
  const read = keys.map((key) => attributeReader(store.source, key.attr));
  return (a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const c = compareValues(read[i](a), read[i](b));
      if (c !== 0) return keys[i].desc ? -c : c;
    }
    return compareIds(store.idOf(a), store.idOf(b));
  };
}

/** Live, allowed rows of the view, best first by `compare`, at most k (a max-heap of the k best). */
export function topRows(
  view: ReadView,
  allow: RowBitset | undefined,
  k: number,
  compare: (a: number, b: number) => number,
): number[] {
  const heap: number[] = [];
  const worse = (i: number, j: number) => compare(heap[i], heap[j]) > 0;
  const swap = (i: number, j: number) => {
    const t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
  };
  for (let row = 0; row < view.rows; row++) {
    if (hasBit(view.dead, row) || (allow && !hasBit(allow, row))) continue;
    if (heap.length < k) {
      heap.push(row);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!worse(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (compare(row, heap[0]) < 0) {
      heap[0] = row;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let top = i;
        if (l < heap.length && worse(l, top)) top = l;
        if (r < heap.length && worse(r, top)) top = r;
        if (top === i) break;
        swap(i, top);
        i = top;
      }
    }
  }
  return heap.sort(compare);
}

/** Ordering with limit.per: at most `perLimit` rows per distinct combination of `perAttrs`, `total` in all. */
export function topRowsPer(
  ns: Namespace,
  view: ReadView,
  allow: RowBitset | undefined,
  compare: (a: number, b: number) => number,
  total: number,
  perAttrs: readonly string[],
  perLimit: number,
): number[] {
  const rows: number[] = [];
  for (let row = 0; row < view.rows; row++)
    if (!hasBit(view.dead, row) && (!allow || hasBit(allow, row))) rows.push(row);
  rows.sort(compare);
  const counts = new Map<string, number>();
  const out: number[] = [];
  for (const row of rows) {
    const key = stringifyJson(
      perAttrs.map((a) => (a === 'id' ? ns.store.idOf(row) : ns.store.value(a, row))),
    );
    const n = counts.get(key) ?? 0;
    if (n >= perLimit) continue;
    counts.set(key, n + 1);
    out.push(row);
    if (out.length === total) break;
  }
  return out;
}
