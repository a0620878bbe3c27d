// GET /v1/namespaces (prefix, cursor, page_size) and DELETE /v2/namespaces/:ns.
import { badRequest } from '../api-error';
import type { Reply, RouteContext } from './context';

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

export async function listRoute(ctx: RouteContext): Promise<Reply> {
  const rawSize = ctx.query.get('page_size');
  // Digits only: Number() would also take "1e3", "0x10" and " 5 ".
  const pageSize =
    rawSize === null ? DEFAULT_PAGE_SIZE : /^\d{1,4}$/.test(rawSize) ? Number(rawSize) : Number.NaN;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
    throw badRequest(
      `page_size: expected a whole number from 1 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(rawSize)}`,
    );
  const cursor = ctx.query.get('cursor') || null;
  const { names, more } = ctx.registry.list(ctx.query.get('prefix') ?? '', cursor, pageSize);
  const body: Record<string, unknown> = { namespaces: names.map((id) => ({ id })) };
  // The cursor is the last name returned: the next page starts after it.
  if (more) body.next_cursor = names[names.length - 1];
  return { body };
}

export async function deleteRoute(ctx: RouteContext): Promise<Reply> {
  await ctx.registry.delete(ctx.params.ns);
  return { body: { status: 'OK' } };
}
