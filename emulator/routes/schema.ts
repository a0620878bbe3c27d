// GET /v1/namespaces/:ns/schema (404 for unknown namespaces: the SDK's exists() relies on it) and POST, whose body
// is the schema object. A schema change is logged like any write ({"schema": ...}).
import { badRequest } from '../api-error';
import { parseJsonBody } from '../wire/json-body';
import { plainAllocator } from '../wire/vectors';
import { parseWriteRequest } from '../wire/write-request';
import type { Reply, RouteContext } from './context';

export async function getSchemaRoute(ctx: RouteContext): Promise<Reply> {
  return { body: ctx.registry.require(ctx.params.ns).schema.describeForSchemaRoute() };
}

export async function updateSchemaRoute(ctx: RouteContext): Promise<Reply> {
  const schema = parseJsonBody(await ctx.body());
  if (!schema || typeof schema !== 'object' || Array.isArray(schema))
    throw badRequest('request body: expected the schema object {attribute: type or {type, ...}}');
  const body = Buffer.from(JSON.stringify({ schema }));
  const request = parseWriteRequest(
    { schema },
    { vectorColumns: new Set(), vectorDims: () => null, alloc: plainAllocator },
  );
  const ns = await ctx.registry.getOrCreate(ctx.params.ns);
  await ns.write(request, body);
  return { body: ns.schema.describeForSchemaRoute() };
}
