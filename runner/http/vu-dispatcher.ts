// One VU's connections, per origin, and which one each request goes on. Written here rather than left to undici's
// Agent and Pool because Pool counts a client as busy while it checks an idle keep-alive socket (one setImmediate
// after every response) and sends a request dispatched meanwhile to a new client: a new connection where k6, like Go's
// http.Transport, reuses the idle one (seen with sequential TLS requests under CPU load). Here a request goes on a
// client with nothing queued, whatever it is doing with its socket; the client writes it once the check is done.
import type { Client, Dispatcher } from 'undici';

/** Makes a client for an origin (runner/http/vu-connection.ts: options and protocol handling). */
export type ClientFactory = (origin: URL) => Client;

/** The part of a client the choice reads (undici's public `stats`, `pipelining` and `destroyed`). */
export interface ClientState {
  readonly stats: { readonly connected: boolean; readonly size: number };
  readonly pipelining: number;
  readonly destroyed: boolean;
}

/**
 * Which of an origin's clients takes the next request, or -1 for a new one: an HTTP/2 connection (every request a
 * stream of it, as Go), else a connected client with nothing queued (keep-alive reuse), else an idle one whose
 * connection closed (it reconnects, as a new connection would, without growing the list). A request while every
 * client is busy opens a new connection, as Go's Transport does (no limit per host, no pipelining).
 */
export function pickClient(clients: readonly ClientState[]): number {
  let idleClosed = -1;
  for (let i = 0; i < clients.length; i++) {
    const c = clients[i];
    if (c.destroyed) continue;
    const { connected, size } = c.stats;
    if (connected && c.pipelining > 1) return i;
    if (size > 0) continue;
    if (connected) return i;
    if (idleClosed < 0) idleClosed = i;
  }
  return idleClosed;
}

export class VuDispatcher {
  private readonly origins = new Map<string, Client[]>();

  constructor(private readonly factory: ClientFactory) {}

  dispatch(
    options: Dispatcher.DispatchOptions & { origin: string },
    handler: Dispatcher.DispatchHandler,
  ): void {
    const origin = options.origin;
    let clients = this.origins.get(origin);
    if (!clients) {
      clients = [];
      this.origins.set(origin, clients);
    }
    const at = pickClient(clients);
    (at >= 0 ? clients[at] : this.added(origin, clients)).dispatch(options, handler);
  }

  /** A new client for `origin`, kept in its list until its connection closes with nothing queued. */
  private added(origin: string, clients: Client[]): Client {
    const client = this.factory(new URL(origin));
    // Dropped then, as the Agent dropped an origin's pool once its connections were gone: a script calling many
    // origins must not keep a client for each.
    const forget = () => {
      if (client.stats.size === 0) this.forget(origin, client);
    };
    client.on('disconnect', forget).on('connectionError', forget);
    clients.push(client);
    return client;
  }

  /** Clients kept, over every origin. */
  get clients(): number {
    let n = 0;
    for (const list of this.origins.values()) n += list.length;
    return n;
  }

  private forget(origin: string, client: Client): void {
    const clients = this.origins.get(origin);
    const at = clients?.indexOf(client) ?? -1;
    if (!clients || at < 0) return;
    clients.splice(at, 1);
    if (clients.length === 0) this.origins.delete(origin);
    client.close().catch(() => {});
  }

  /** Lets in-flight requests finish, then closes every connection. */
  close(): Promise<void> {
    return this.each((c) => c.close());
  }

  /** Ends every connection now, failing what is in flight. */
  destroy(): Promise<void> {
    return this.each((c) => c.destroy());
  }

  private async each(end: (c: Client) => Promise<void>): Promise<void> {
    const all = [...this.origins.values()].flat();
    this.origins.clear();
    await Promise.all(all.map((c) => end(c).catch(() => {})));
  }
}
