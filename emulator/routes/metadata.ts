// GET /v1|v2/namespaces/:ns/metadata, and PATCH /v1/namespaces/:ns/metadata (pinning is accepted and ignored: the
// emulator has no replicas to pin).
import type { Reply, RouteContext } from './context';

export async function metadataRoute(ctx: RouteContext): Promise<Reply> {
  return { body: ctx.registry.require(ctx.params.ns).metadata() };
}

export async function patchMetadataRoute(ctx: RouteContext): Promise<Reply> {
  const ns = ctx.registry.require(ctx.params.ns);
  await ctx.body();
  return { body: ns.metadata() };
}
