// GET /v1|v2/namespaces/:ns/metadata, and PATCH /v1/namespaces/:ns/metadata (the SDKs' update_metadata): `pinning`
// is checked and accepted but changes nothing (the emulator has no replicas to pin, so metadata never reports
// pinning); `read_only: true` is refused as not supported, `false` is what every emulator namespace is.
import { badRequest } from '../api-error';
import { parseJsonBody } from '../wire/json-body';
import { describeJson, fieldName } from '../wire/json-text';
import type { Reply, RouteContext } from './context';

export async function metadataRoute(ctx: RouteContext): Promise<Reply> {
  return { body: ctx.registry.require(ctx.params.ns).metadata() };
}

function checkPinning(value: unknown): void {
  if (value === undefined || value === null || typeof value === 'boolean') return;
  if (typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (key !== 'replicas')
        throw badRequest(`pinning.${fieldName(key)}: unknown field (pinning takes {"replicas": n})`);
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
        throw badRequest(`pinning.replicas: expected a whole number of at least 1, got ${describeJson(v)}`);
    }
    return;
  }
  throw badRequest('pinning: expected true, false, null or {"replicas": n}');
}

export async function patchMetadataRoute(ctx: RouteContext): Promise<Reply> {
  const ns = ctx.registry.require(ctx.params.ns);
  const raw = parseJsonBody(await ctx.body());
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest('request body: expected {"pinning": ...} or {"read_only": ...}');
  const body = raw as Record<string, unknown>;
  for (const key of Object.keys(body))
    if (key !== 'pinning' && key !== 'read_only')
      throw badRequest(
        `request body: unknown field ${JSON.stringify(key)} in a metadata update (it takes pinning and read_only)`,
      );
  checkPinning(body.pinning);
  if (body.read_only !== undefined && body.read_only !== null && typeof body.read_only !== 'boolean')
    throw badRequest('read_only: expected true or false');
  if (body.read_only === true)
    throw badRequest('read_only: read-only namespaces are not supported by the emulator');
  return { body: ns.metadata() };
}
