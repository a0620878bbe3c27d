// Asynchronous copies, as the Python SDK 3.x calls them: POST /v2/namespaces/:ns/async with {"copy_from_namespace":
// ...} (start_copy_from) checks the request, starts the copy and answers {"token"} at once; GET
// /v1/namespaces/:ns/operations/:token (poll_copy_from) reports {"status": "running", start_time, progress} or
// {"status": "finished", start_time, finish_time, result: {"success": <the write's response>} | {"error":
// {status_code, detail: <error envelope>}}}. Operations live in memory: a restart forgets them, while the
// documents already copied are in the log like any write.
import { randomUUID } from 'node:crypto';
import { ApiError, badRequest, envelope } from '../api-error';
import { checkNamespaceName } from '../namespace/name';
import type { NamespaceRegistry } from '../namespace/registry';
import { parseJsonBody } from '../wire/json-body';
import { fieldName } from '../wire/json-text';
import { plainAllocator } from '../wire/vectors';
import { parseWriteRequest } from '../wire/write-request';
import type { Reply, RouteContext } from './context';
import { checkCopyDestination, copyDocuments } from './copy-from';
import { writeResponse } from './write';

interface Operation {
  namespace: string;
  startTime: string;
  progress: string;
  finished: { finishTime: string; result: Record<string, unknown> } | null;
}

/** Finished operations kept per emulator; the oldest are forgotten first. */
const KEPT_OPERATIONS = 1000;

// Per registry (one per emulator), so emulators sharing a process (tests) keep their operations apart.
const operationsOf = new WeakMap<NamespaceRegistry, Map<string, Operation>>();

function operations(registry: NamespaceRegistry): Map<string, Operation> {
  let ops = operationsOf.get(registry);
  if (!ops) {
    ops = new Map();
    operationsOf.set(registry, ops);
  }
  return ops;
}

function forgetOldest(ops: Map<string, Operation>): void {
  for (const [token, op] of ops) {
    if (ops.size <= KEPT_OPERATIONS) return;
    if (op.finished) ops.delete(token);
  }
}

export async function startAsyncRoute(ctx: RouteContext): Promise<Reply> {
  const raw = parseJsonBody(await ctx.body());
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest('request body: expected {"copy_from_namespace": {"source_namespace": name}}');
  for (const key of Object.keys(raw))
    if (key !== 'copy_from_namespace')
      throw badRequest(
        `${fieldName(key)}: only copy_from_namespace runs asynchronously; send other writes to POST /v2/namespaces/:ns`,
      );
  const request = parseWriteRequest(raw, {
    vectorColumns: new Set(),
    vectorDims: () => null,
    alloc: plainAllocator,
  });
  if (!request.copyFromNamespace)
    throw badRequest('copy_from_namespace: expected {"source_namespace": name}');
  // What can be refused at once is refused at once (unknown source, non-empty destination).
  const source = ctx.registry.require(request.copyFromNamespace);
  const existing = ctx.registry.get(ctx.params.ns);
  if (existing) checkCopyDestination(existing);
  else checkNamespaceName(ctx.params.ns);
  const op: Operation = {
    namespace: ctx.params.ns,
    startTime: new Date().toISOString(),
    progress: 'starting',
    finished: null,
  };
  const token = randomUUID();
  const ops = operations(ctx.registry);
  ops.set(token, op);
  forgetOldest(ops);
  const startedAt = performance.now();
  const finish = (result: Record<string, unknown>) => {
    op.finished = { finishTime: new Date().toISOString(), result };
  };
  // The copy is the destination's write: a copy that fails leaves no new namespace behind.
  ctx.registry
    .writeTo(ctx.params.ns, (dest) =>
      copyDocuments(source, dest, (copied, total) => {
        op.progress = `copied ${copied} of ${total} documents`;
      }),
    )
    .then(
      (result) => finish({ success: writeResponse(request, result, startedAt) }),
      (error: unknown) => {
        const status = error instanceof ApiError ? error.status : 500;
        const message =
          error instanceof ApiError ? error.message : `internal error: ${(error as Error)?.message}`;
        finish({ error: { status_code: status, detail: envelope(message) } });
      },
    );
  return { body: { token } };
}

export async function pollOperationRoute(ctx: RouteContext): Promise<Reply> {
  // Not require(): a copy that failed into a new namespace left none, and its outcome is still to be read.
  checkNamespaceName(ctx.params.ns);
  const op = operations(ctx.registry).get(ctx.params.token);
  if (!op || op.namespace !== ctx.params.ns)
    throw new ApiError(404, `operation '${ctx.params.token}' was not found in namespace '${ctx.params.ns}'`);
  if (!op.finished) return { body: { status: 'running', start_time: op.startTime, progress: op.progress } };
  return {
    body: {
      status: 'finished',
      start_time: op.startTime,
      finish_time: op.finished.finishTime,
      result: op.finished.result,
    },
  };
}
