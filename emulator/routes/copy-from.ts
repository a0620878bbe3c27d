// copy_from_namespace: every live document of a source namespace upserted into an empty one. The copy is logged as
// ordinary upserts (self-contained, so the destination replays without its source), in batches of COPY_BATCH rows.
import { badRequest } from '../api-error';
import type { Namespace, WriteResult } from '../namespace/namespace';
import { isMissing } from '../storage/vector-slot';
import { stringifyJson } from '../wire/json-text';
import { plainAllocator } from '../wire/vectors';
import { readWriteBody } from '../wire/write-request';

const COPY_BATCH = 10_000;

export function checkCopyDestination(dest: Namespace): void {
  if (dest.liveDocuments > 0)
    throw badRequest('copy_from_namespace: the destination namespace must be empty');
}

/** Copies every live document; `onBatch` hears how many of how many are copied after each batch. */
export async function copyDocuments(
  source: Namespace,
  dest: Namespace,
  onBatch: (copied: number, total: number) => void = () => {},
): Promise<WriteResult> {
  checkCopyDestination(dest);
  const rows = [...source.store.liveRows.values()].sort((a, b) => a - b);
  const total: WriteResult = { upserted: [], patched: [], deleted: [], rowsRemaining: false, bytes: 0 };
  const schema = source.schema.describeForMetadata();
  for (let at = 0; at < rows.length || at === 0; at += COPY_BATCH) {
    const batch = rows.slice(at, at + COPY_BATCH);
    const columns: Record<string, unknown[]> = { id: batch.map((r) => source.store.idOf(r)) };
    for (const name of source.schema.attributes.keys()) {
      const slot = source.vectors.get(name);
      columns[name] = batch.map((r) => {
        if (slot) {
          const v = slot.column.get(r);
          return isMissing(slot, r)
            ? null
            : Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
        }
        return source.store.value(name, r);
      });
    }
    const body = Buffer.from(
      stringifyJson({
        schema,
        ...(source.schema.distanceMetric ? { distance_metric: source.schema.distanceMetric } : {}),
        ...(batch.length > 0 ? { upsert_columns: columns } : {}),
      }),
    );
    const request = await readWriteBody(body, {
      vectorColumns: new Set(source.schema.vectorColumns()),
      vectorDims: (name) => source.vectorDims(name),
      alloc: plainAllocator,
    });
    const result = await dest.write(request, body);
    total.upserted.push(...result.upserted);
    total.bytes += result.bytes;
    onBatch(at + batch.length, rows.length);
    if (rows.length === 0) break;
  }
  return total;
}
