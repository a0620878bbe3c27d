// GET /v1/namespaces/:ns/schema (404 for unknown namespaces: the SDK's exists() relies on it) and POST, whose body
// is the schema object. A schema change is logged like any write ({"schema": ...}).
import { badRequest } from '../api-error';
import { parseJsonBody } from '../wire/json-body';
import { plainAllocator } from '../wire/vectors';
import { readWriteBody } from '../wire/write-request';
import type { Reply, RouteContext } from './context';

export async function getSchemaRoute(ctx: RouteContext): Promise<Reply> {
  return { body: ctx.registry.require(ctx.params.ns).schema.describeForSchemaRoute() };
}

export async function updateSchemaRoute(ctx: RouteContext): Promise<Reply> {
  const raw = await ctx.body();
  const schema = parseJsonBody(raw);
  if (!schema || typeof schema !== 'object' || Array.isArray(schema))
    throw badRequest('request body: expected the schema object {attribute: type or {type, ...}}');
  // The logged write wraps the body's own bytes (one JSON object, checked above): nothing is re-serialized, so long
  // strings, big numbers and deep values reach the write parser (and its 400s) exactly as sent.
  const body = Buffer.concat([Buffer.from('{"schema":'), raw, Buffer.from('}')]);
  const request = await readWriteBody(body, {
    vectorColumns: new Set(),
    vectorDims: () => null,
    alloc: plainAllocator,
  });
  return {
    body: await ctx.registry.writeTo(ctx.params.ns, async (ns) => {
      await ns.write(request, body);
      return ns.schema.describeForSchemaRoute();
    }),
  };
}
