// aggregate_by (Count, Count of an attribute, Sum) over the rows a filter allows, optionally per group_by key.
// Groups come back ordered by their key values, at most `limit` of them.

import type { Namespace, ReadView } from '../namespace/namespace';
import { hasBit } from '../vector/bitset';
import type { RowBitset } from '../vector/types';
import { compareIds, type DocId } from '../wire/ids';
import { stringifyJson } from '../wire/json-text';
import type { AggregateSpec, GroupKey } from '../wire/query-request';
import type { StoredValue } from '../wire/values';
import { renderValue } from '../wire/values';

function accumulate(ns: Namespace, specs: readonly AggregateSpec[], totals: number[], row: number): void {
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i];
    if (spec.attr === null) {
      totals[i]++;
      continue;
    }
    const v = spec.attr === 'id' ? ns.store.idOf(row) : ns.store.value(spec.attr, row);
    if (v === null) continue;
    if (spec.fn === 'Count') totals[i]++;
    else if (typeof v === 'number') totals[i] += v;
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'number') totals[i] += x;
  }
}

function labelled(specs: readonly AggregateSpec[], totals: number[]): Record<string, number> {
  const out: Record<string, number> = {};
  specs.forEach((spec, i) => {
    out[spec.label] = totals[i];
  });
  return out;
}

export function aggregate(
  ns: Namespace,
  view: ReadView,
  allow: RowBitset | undefined,
  specs: readonly AggregateSpec[],
): Record<string, number> {
  const totals = specs.map(() => 0);
  for (let row = 0; row < view.rows; row++) {
    if (hasBit(view.dead, row) || (allow && !hasBit(allow, row))) continue;
    accumulate(ns, specs, totals, row);
  }
  return labelled(specs, totals);
}

function compareKeys(a: StoredValue[], b: StoredValue[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'bigint' || typeof y === 'bigint') return compareIds(x as DocId, y as DocId);
    const c = String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
    if (c !== 0) return c;
  }
  return 0;
}

export function aggregateGroups(
  ns: Namespace,
  view: ReadView,
  allow: RowBitset | undefined,
  specs: readonly AggregateSpec[],
  groupBy: readonly GroupKey[],
  limit: number,
): Record<string, unknown>[] {
  const groups = new Map<string, { key: StoredValue[]; totals: number[] }>();
  for (let row = 0; row < view.rows; row++) {
    if (hasBit(view.dead, row) || (allow && !hasBit(allow, row))) continue;
    const key = groupBy.map((g) => (g.attr === 'id' ? ns.store.idOf(row) : ns.store.value(g.attr, row)));
    const id = stringifyJson(key);
    let group = groups.get(id);
    if (!group) {
      group = { key, totals: specs.map(() => 0) };
      groups.set(id, group);
    }
    accumulate(ns, specs, group.totals, row);
  }
  return [...groups.values()]
    .sort((a, b) => compareKeys(a.key, b.key))
    .slice(0, limit)
    .map((group) => {
      const out: Record<string, unknown> = {};
      groupBy.forEach((g, i) => {
        const spec = ns.schema.attribute(g.attr);
        out[g.label] = spec ? renderValue(spec.type, group.key[i]) : group.key[i];
      });
      return { ...out, ...labelled(specs, group.totals) };
    });
}
