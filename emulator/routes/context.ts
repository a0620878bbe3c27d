// What every route handler receives, and what it returns: the seam between server.ts and routes/.
import type { BufferPool } from '../http/buffer-pool';
import type { NamespaceRegistry } from '../namespace/registry';

export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  registry: NamespaceRegistry;
  pool: BufferPool;
  /** performance.now() when the request arrived. */
  startedAt: number;
  /** The request body (read once; pooled buffers are released after the response). */
  body(): Promise<Buffer>;
  /** Returns a pooled buffer after the response is sent. */
  lease(buffer: Buffer): void;
}

export interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RouteContext) => Promise<Reply>;
