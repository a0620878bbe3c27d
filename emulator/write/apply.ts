// Applying a prepared write, in two steps so a big write never holds the event loop for long:
//
//   1. appendWriteVectors (async, in slices): the new rows' vectors go to the engine. Readers bound every search
//      by the namespace's row count, so engine rows past it are invisible until step 2.
//   2. applyWriteRows (synchronous): documents, tombstones and log positions, all at once: readers see the whole
//      write or none of it.
//
// Row order is the same in both: patch_by_filter rows, upserts (in batch order, applied rows only), patches.
// A patch is a new row version that carries its document's vector: from an upsert earlier in the same request,
// otherwise from the live row.

import type { NamespaceSchema } from '../namespace/schema';
import type { DocStore } from '../storage/doc-store';
import { isMissing, markMissing, type VectorSlot } from '../storage/vector-slot';
import { type DocId, idBytes } from '../wire/ids';
import { type StoredValue, valueBytes } from '../wire/values';
import type { PreparedDocs, PreparedWrite } from './prepare';
import { writeTurn } from './turn';

/** Engine rows appended per step; between steps the write takes a turn on its budget (turn.ts). */
const APPEND_SLICE_ROWS = 128;

export interface WriteTarget {
  schema: NamespaceSchema;
  store: DocStore;
  vectors: ReadonlyMap<string, VectorSlot>;
  /** Logical bytes of the live documents. */
  liveBytes: number;
}

export interface AppliedWrite {
  upserted: DocId[];
  patched: DocId[];
  deleted: DocId[];
  /** Logical bytes the write carried. */
  bytes: number;
  endPos: number;
}

/** Shared by every row without attribute values (vector-only upserts): no allocation per row. */
const NO_VALUES: Map<string, StoredValue> = new Map();

function appliedRows(docs: PreparedDocs): number[] {
  const rows: number[] = [];
  for (let i = 0; i < docs.ids.length; i++) if (docs.apply[i]) rows.push(i);
  return rows;
}

/** Step 1: appends every new row's vector (zeros where missing) to every vector column of the target. */
export async function appendWriteVectors(target: WriteTarget, prepared: PreparedWrite): Promise<void> {
  if (target.vectors.size === 0) return;
  const firstRow = target.store.rowCount;
  // Only patches need to know which ids this request upserts (their vectors come from there).
  const upserted = new Map<DocId, { docs: PreparedDocs; i: number }>();
  if (prepared.patches.length > 0)
    for (const docs of prepared.upserts)
      for (const i of appliedRows(docs)) upserted.set(docs.ids[i], { docs, i });
  for (const [name, slot] of target.vectors) {
    const dims = slot.column.dims;
    let row = firstRow;
    const copyPatches = async (docs: PreparedDocs, afterUpserts: boolean) => {
      const rows = appliedRows(docs);
      for (let at = 0; at < rows.length; at += APPEND_SLICE_ROWS) {
        const slice = rows.slice(at, at + APPEND_SLICE_ROWS);
        const data = new Float32Array(slice.length * dims);
        slice.forEach((i, k) => {
          const id = docs.ids[i];
          const from = afterUpserts ? upserted.get(id) : undefined;
          if (from) {
            const batch = from.docs.vectors.get(name);
            if (!batch || batch.missing?.[from.i]) markMissing(slot, row + k);
            else data.set(batch.data.subarray(from.i * dims, (from.i + 1) * dims), k * dims);
            return;
          }
          const old = target.store.liveRows.get(id) as number;
          if (isMissing(slot, old)) markMissing(slot, row + k);
          else data.set(slot.column.get(old), k * dims);
        });
        slot.column.append(data);
        row += slice.length;
        await writeTurn();
      }
    };
    if (prepared.filterPatches) await copyPatches(prepared.filterPatches, false);
    for (const docs of prepared.upserts) {
      const batch = docs.vectors.get(name);
      const rows = appliedRows(docs);
      const contiguous = rows.length === docs.ids.length;
      for (let at = 0; at < rows.length; at += APPEND_SLICE_ROWS) {
        const slice = rows.slice(at, at + APPEND_SLICE_ROWS);
        let data: Float32Array;
        if (batch && contiguous) data = batch.data.subarray(at * dims, (at + slice.length) * dims);
        else {
          data = new Float32Array(slice.length * dims);
          if (batch)
            slice.forEach((i, k) => {
              data.set(batch.data.subarray(i * dims, (i + 1) * dims), k * dims);
            });
        }
        slice.forEach((i, k) => {
          if (!batch || batch.missing?.[i]) markMissing(slot, row + k);
        });
        slot.column.append(data);
        row += slice.length;
        if (at + APPEND_SLICE_ROWS < rows.length) await writeTurn();
      }
    }
    for (const docs of prepared.patches) await copyPatches(docs, true);
  }
}

/** Step 2: the documents, tombstones and log positions of the write. Cannot fail. */
export function applyWriteRows(target: WriteTarget, prepared: PreparedWrite): AppliedWrite {
  const { store, schema } = target;
  const idType = schema.idType ?? 'uint';
  let pos = store.headPos;
  const out: AppliedWrite = { upserted: [], patched: [], deleted: [], bytes: 0, endPos: pos };

  const remove = (id: DocId) => {
    const b = idBytes(id, idType);
    pos += b;
    out.bytes += b;
    const row = store.liveRows.get(id);
    if (row === undefined) return;
    target.liveBytes -= store.docBytesOf(row);
    store.deleteId(id, pos);
    out.deleted.push(id);
  };

  const upsert = (docs: PreparedDocs) => {
    const columns = [...docs.values];
    for (const i of appliedRows(docs)) {
      const id = docs.ids[i];
      pos += docs.opBytes[i];
      out.bytes += docs.opBytes[i];
      let values: Map<string, StoredValue> = NO_VALUES;
      for (const [name, column] of columns) {
        const v = column[i];
        if (v === null || v === undefined) continue;
        if (values === NO_VALUES) values = new Map();
        values.set(name, v);
      }
      const previous = store.liveRows.get(id);
      if (previous !== undefined) target.liveBytes -= store.docBytesOf(previous);
      store.appendRow(id, pos, docs.opBytes[i], values);
      target.liveBytes += docs.opBytes[i];
      out.upserted.push(id);
    }
  };

  const patch = (docs: PreparedDocs) => {
    for (const i of appliedRows(docs)) {
      const id = docs.ids[i];
      const old = store.liveRows.get(id) as number;
      const values = new Map<string, StoredValue>();
      let docBytes = idBytes(id, idType);
      const keep = (name: string, v: StoredValue | undefined) => {
        if (v === null || v === undefined || values.has(name)) return;
        values.set(name, v);
        const spec = schema.attribute(name);
        if (spec) docBytes += valueBytes(spec.type, v);
      };
      for (const [name, column] of docs.values)
        keep(name, column[i] === undefined ? store.value(name, old) : column[i]);
      for (const name of store.attributes.keys())
        if (!docs.values.has(name)) keep(name, store.value(name, old));
      for (const slot of target.vectors.values()) if (!isMissing(slot, old)) docBytes += slot.column.dims * 4;
      pos += docs.opBytes[i];
      out.bytes += docs.opBytes[i];
      target.liveBytes += docBytes - store.docBytesOf(old);
      store.appendRow(id, pos, docBytes, values);
      out.patched.push(id);
    }
  };

  for (const id of prepared.filterDeletes) remove(id);
  if (prepared.filterPatches) patch(prepared.filterPatches);
  for (const docs of prepared.upserts) upsert(docs);
  for (const docs of prepared.patches) patch(docs);
  for (const id of prepared.deletes) remove(id);
  store.advanceHead(pos);
  out.endPos = pos;
  return out;
}
