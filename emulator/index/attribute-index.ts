// Exact inverted indexes for filterable attributes over the indexed rows: value -> rows holding it (array
// attributes post each element). Built incrementally by the indexer; rows are immutable versions, so postings only
// ever grow, and dead rows are removed by the dead bitset at query time.
import { setBit } from '../vector/bitset';
import type { RowBitset } from '../vector/types';
import type { StoredScalar, StoredValue } from '../wire/values';

/** An attribute with more distinct values than this stops being indexed (postings would outweigh a scan). */
const MAX_DISTINCT_VALUES = 200_000;

export interface IndexSource {
  attributes: ReadonlyMap<string, StoredValue[]>;
}

export class AttributeIndex {
  private readonly postings = new Map<string, Map<StoredScalar, number[]>>();
  private readonly abandoned = new Set<string>();
  /** Postings cover rows [0, indexedRows) of every indexed attribute. */
  indexedRows = 0;

  /** Extends every index to rows [0, to) for the given filterable attributes; new attributes are backfilled. */
  addRows(to: number, source: IndexSource, filterable: Iterable<string>): void {
    for (const name of filterable) {
      if (this.abandoned.has(name)) continue;
      let byValue = this.postings.get(name);
      const from = byValue ? this.indexedRows : 0;
      if (!byValue) {
        byValue = new Map();
        this.postings.set(name, byValue);
      }
      const column = source.attributes.get(name);
      if (column) this.post(name, byValue, column, from, Math.min(to, column.length));
    }
    this.indexedRows = Math.max(this.indexedRows, to);
  }

  private post(
    name: string,
    byValue: Map<StoredScalar, number[]>,
    column: StoredValue[],
    from: number,
    to: number,
  ) {
    for (let row = from; row < to; row++) {
      const value = column[row];
      if (value === null || value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) add(byValue, item, row);
      else add(byValue, value, row);
      if (byValue.size > MAX_DISTINCT_VALUES) {
        this.postings.delete(name);
        this.abandoned.add(name);
        return;
      }
    }
  }

  /** Stops indexing an attribute (it became non-filterable). */
  drop(name: string): void {
    this.postings.delete(name);
  }

  /** True when rows [0, indexedRows) of `name` are covered by postings. */
  covers(name: string): boolean {
    return this.postings.has(name);
  }

  /** Sets the bits of indexed rows whose value is (or, for arrays, contains) one of `values`. */
  markRows(name: string, values: readonly StoredScalar[], out: RowBitset): void {
    const byValue = this.postings.get(name);
    if (!byValue) return;
    for (const value of values) {
      const rows = byValue.get(value);
      if (rows) for (const row of rows) setBit(out, row);
    }
  }

  /** Distinct values per indexed attribute (for figures and tests). */
  distinctValues(name: string): number {
    return this.postings.get(name)?.size ?? 0;
  }
}

function add(byValue: Map<StoredScalar, number[]>, value: StoredScalar, row: number): void {
  const rows = byValue.get(value);
  if (rows) {
    // An array attribute may repeat an element; post the row once.
    if (rows[rows.length - 1] !== row) rows.push(row);
  } else byValue.set(value, [row]);
}
