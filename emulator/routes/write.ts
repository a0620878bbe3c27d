// POST /v2/namespaces/:ns: upserts, patches, deletes, filter writes and schema changes, atomically.
import { badRequest } from '../api-error';
import { checkNamespaceName } from '../namespace/name';
import type { Namespace, WriteResult } from '../namespace/namespace';
import { serverTotal } from '../wire/performance';
import type { FloatAllocator } from '../wire/vectors';
import { isEmptyWrite, readWriteBody, type WriteRequest } from '../wire/write-request';
import { writeTurn } from '../write/turn';
import type { Reply, RouteContext } from './context';
import { copyDocuments } from './copy-from';

/** A write's response body (also the `success` of an asynchronous copy). */
export function writeResponse(
  req: WriteRequest,
  result: WriteResult,
  startedAt: number,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    status: 'OK',
    message: 'OK',
    rows_affected: result.upserted.length + result.patched.length + result.deleted.length,
  };
  if (req.upserts.length > 0 || req.copyFromNamespace) body.rows_upserted = result.upserted.length;
  if (req.patches.length > 0 || req.patchByFilter) body.rows_patched = result.patched.length;
  if (req.deletes.length > 0 || req.deleteByFilter !== undefined) body.rows_deleted = result.deleted.length;
  if (req.deleteByFilter !== undefined || req.patchByFilter) body.rows_remaining = result.rowsRemaining;
  // The SDKs: each list "only included when return_affected_ids is true and at least one document was" affected.
  if (req.returnAffectedIds) {
    if (result.upserted.length > 0) body.upserted_ids = result.upserted;
    if (result.patched.length > 0) body.patched_ids = result.patched;
    if (result.deleted.length > 0) body.deleted_ids = result.deleted;
  }
  body.billing = { billable_logical_bytes_written: result.bytes };
  body.performance = serverTotal(startedAt);
  return body;
}

/** A Float32Array allocator over the request's pool: decoded vectors reuse warm memory. */
function pooledFloats(ctx: RouteContext): FloatAllocator {
  return (floats) => {
    const bytes = ctx.pool.acquire(floats * 4);
    ctx.lease(bytes);
    return new Float32Array(bytes.buffer, bytes.byteOffset, floats);
  };
}

export async function writeRoute(ctx: RouteContext): Promise<Reply> {
  const name = ctx.params.ns;
  checkNamespaceName(name);
  const body = await ctx.body();
  const existing = ctx.registry.get(name);
  const request = await readWriteBody(
    body,
    {
      vectorColumns: new Set(existing?.schema.vectorColumns() ?? []),
      vectorDims: (column) => existing?.vectorDims(column) ?? null,
      alloc: pooledFloats(ctx),
    },
    writeTurn,
  );
  // create_namespace: false never creates (404 for a missing namespace); true creates even an empty one, which
  // needs its id type declared because no document shows it.
  if (request.createNamespace === false) ctx.registry.require(name);
  if (
    request.createNamespace === true &&
    !existing &&
    request.idType === null &&
    request.upserts.length === 0
  )
    throw badRequest(
      'create_namespace: an empty namespace needs its id type in schema, e.g. "schema": {"id": "uint"}',
    );
  if (request.copyFromNamespace) {
    const source = ctx.registry.require(request.copyFromNamespace);
    const result = await ctx.registry.writeTo(name, (ns) => copyDocuments(source, ns));
    return { body: writeResponse(request, result, ctx.startedAt) };
  }
  if (isEmptyWrite(request))
    throw badRequest('request body: empty write (nothing to upsert, patch, delete or declare)');
  const result = await ctx.registry.writeTo(name, async (ns: Namespace) => {
    // Reading the write's rows and decoding its first vectors are separate turns: together they held the event
    // loop for tens of milliseconds on a 40 MB write (docs/emulator-measurements.md §3), and a query arriving
    // meanwhile waited for both.
    await writeTurn();
    return ns.write(request, body);
  });
  return { body: writeResponse(request, result, ctx.startedAt) };
}
