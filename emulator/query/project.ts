// Result rows as the API returns them: id, $dist for vector rankings, then the requested attributes (vectors as
// float arrays or base64 little-endian f32, datetimes as ISO-8601).

import type { VectorEncoding } from '../../lib/turbopuffer-wire';
import type { Namespace } from '../namespace/namespace';
import { hasBit } from '../vector/bitset';
import type { QuerySpec } from '../wire/query-request';
import { renderValue } from '../wire/values';

/** Attribute names a query returns, in schema order. */
export function returnedAttributes(ns: Namespace, spec: Pick<QuerySpec, 'include' | 'exclude'>): string[] {
  if (spec.include === true) {
    const excluded = new Set(spec.exclude ?? []);
    return [...ns.schema.attributes.keys()].filter((name) => !excluded.has(name));
  }
  return spec.include.filter((name) => name !== 'id');
}

export function projectRow(
  ns: Namespace,
  row: number,
  attributes: readonly string[],
  explicit: boolean,
  encoding: VectorEncoding,
  dist?: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = { id: ns.store.idOf(row) };
  if (dist !== undefined) out.$dist = dist;
  for (const name of attributes) {
    const slot = ns.vectors.get(name);
    if (slot) {
      if (hasBit(slot.missing, row)) {
        if (explicit) out[name] = null;
        continue;
      }
      const vector = slot.column.get(row);
      out[name] =
        encoding === 'base64'
          ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64')
          : Array.from(vector);
      continue;
    }
    const value = ns.store.value(name, row);
    if (value === null && !explicit) continue;
    const spec = ns.schema.attribute(name);
    out[name] = spec ? renderValue(spec.type, value) : value;
  }
  return out;
}
