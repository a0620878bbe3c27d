// GET /v1|v2/namespaces/:ns/metadata, and PATCH /v1/namespaces/:ns/metadata (the SDKs' update_metadata): `pinning`
// (true, {"replicas": n}; null or false unpins) is reported back in metadata, with every replica ready at once (the
// emulator has no replicas to warm); `read_only: true` makes document and schema writes fail with 403 until it is
// set false. Both are kept beside the namespace's log before the answer (a restart with --data-dir keeps them).
import type { MetadataUpdate } from '../../lib/turbopuffer-wire';
import { badRequest } from '../api-error';
import { parseJsonBody, type Unchecked } from '../wire/json-body';
import { describeJson, fieldName } from '../wire/json-text';
import type { Reply, RouteContext } from './context';

export async function metadataRoute(ctx: RouteContext): Promise<Reply> {
  return { body: ctx.registry.require(ctx.params.ns).metadata() };
}

/** The replicas a `pinning` value asks for: a number, 0 to unpin (null, false), undefined to leave it. */
function parsePinning(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === false) return 0;
  if (value === true) return 1;
  if (typeof value === 'object' && !Array.isArray(value)) {
    let replicas = 1;
    for (const [key, v] of Object.entries(value)) {
      if (key !== 'replicas')
        throw badRequest(`pinning.${fieldName(key)}: unknown field (pinning takes {"replicas": n})`);
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
        throw badRequest(`pinning.replicas: expected a whole number of at least 1, got ${describeJson(v)}`);
      replicas = v;
    }
    return replicas;
  }
  throw badRequest('pinning: expected true, false, null or {"replicas": n}');
}

export async function patchMetadataRoute(ctx: RouteContext): Promise<Reply> {
  const ns = ctx.registry.require(ctx.params.ns);
  const raw = parseJsonBody(await ctx.body());
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest('request body: expected {"pinning": ...} or {"read_only": ...}');
  const body = raw as Unchecked<MetadataUpdate>;
  const fields: readonly (keyof MetadataUpdate)[] = ['pinning', 'read_only'];
  for (const key of Object.keys(body))
    if (!(fields as readonly string[]).includes(key))
      throw badRequest(
        `request body: unknown field ${JSON.stringify(key)} in a metadata update (it takes pinning and read_only)`,
      );
  const replicas = parsePinning(body.pinning);
  if (body.read_only !== undefined && body.read_only !== null && typeof body.read_only !== 'boolean')
    throw badRequest('read_only: expected true or false');
  await ns.updateSettings({
    replicas,
    readOnly: typeof body.read_only === 'boolean' ? body.read_only : undefined,
  });
  return { body: ns.metadata() };
}
