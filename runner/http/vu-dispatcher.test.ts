import { type AddressInfo, createServer, type Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { undici } from './undici';
import { type ClientState, pickClient, VuDispatcher } from './vu-dispatcher';

const state = (connected: boolean, size: number, pipelining = 1, destroyed = false): ClientState => ({
  stats: { connected, size },
  pipelining,
  destroyed,
});

describe('pickClient', () => {
  it('reuses a connected client with nothing queued, the first such one', () => {
    expect(pickClient([state(true, 1), state(true, 0), state(true, 0)])).toBe(1);
  });

  it('sends every request over a connected HTTP/2 client, busy or not', () => {
    expect(pickClient([state(true, 1), state(true, 7, Number.POSITIVE_INFINITY)])).toBe(1);
  });

  it('reconnects an idle closed client before making a new one, and prefers a connected one to it', () => {
    expect(pickClient([state(true, 1), state(false, 0)])).toBe(1);
    expect(pickClient([state(false, 0), state(true, 0)])).toBe(1);
  });

  it('asks for a new client when every one is busy, connecting or destroyed', () => {
    expect(pickClient([])).toBe(-1);
    expect(pickClient([state(true, 1), state(false, 1), state(false, 0, 1, true)])).toBe(-1);
  });
});

/** A keep-alive HTTP/1.1 server on 127.0.0.1 answering every request with a 2-byte body; counts connections. */
async function server(): Promise<{
  origin: string;
  connections: () => number;
  dropConnections: () => void;
  close: () => Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const s = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    socket.on('data', (d) => {
      buffered += String(d);
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        buffered = buffered.slice(end + 4);
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      }
    });
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    connections: () => connections,
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        s.close(() => resolve());
      }),
  };
}

/** A handler that calls `done` with the status once the response has ended. */
function handler(done: (status: number) => void, failed: (e: Error) => void): Dispatcher.DispatchHandler {
  let status = 0;
  return {
    onConnect: () => {},
    onHeaders: (code) => {
      status = code;
      return true;
    },
    onData: () => true,
    onComplete: () => done(status),
    onError: failed,
  } as Dispatcher.DispatchHandler;
}

/** One GET through `d`; resolves with its status. */
function get(d: VuDispatcher, origin: string): Promise<number> {
  return new Promise((resolve, reject) =>
    d.dispatch({ origin, path: '/', method: 'GET' }, handler(resolve, reject)),
  );
}

describe('VuDispatcher', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
  });

  function dispatcher(): VuDispatcher {
    const d = new VuDispatcher((origin) => new (undici().Client)(origin, { pipelining: 1 }));
    cleanup.push(() => d.close());
    return d;
  }

  it('sends a request made the moment the previous response ended over the same connection', async () => {
    const srv = await server();
    cleanup.push(srv.close);
    const d = dispatcher();
    // Each request is dispatched on the microtask after the previous one's completion, before undici has checked the
    // idle socket (in a setImmediate): undici's Pool opens a new connection for it then.
    const statuses = await new Promise<number[]>((resolve, reject) => {
      const seen: number[] = [];
      const next = () =>
        d.dispatch(
          { origin: srv.origin, path: '/', method: 'GET' },
          handler((status) => {
            seen.push(status);
            if (seen.length === 20) resolve(seen);
            else queueMicrotask(next);
          }, reject),
        );
      next();
    });
    expect(statuses).toEqual(Array(20).fill(200));
    expect(srv.connections()).toBe(1);
  });

  it('opens one connection per request in flight at once, and reuses them afterwards', async () => {
    const srv = await server();
    cleanup.push(srv.close);
    const d = dispatcher();
    const round = () => Promise.all([get(d, srv.origin), get(d, srv.origin), get(d, srv.origin)]);
    expect(await round()).toEqual([200, 200, 200]);
    expect(await round()).toEqual([200, 200, 200]);
    expect(srv.connections()).toBe(3);
  });

  it('drops a client once its connection closed with nothing queued, and reconnects on the next request', async () => {
    const srv = await server();
    cleanup.push(srv.close);
    const d = dispatcher();
    expect(await get(d, srv.origin)).toBe(200);
    expect(d.clients).toBe(1);
    srv.dropConnections();
    await until(() => d.clients === 0);
    expect(await get(d, srv.origin)).toBe(200);
    expect([d.clients, srv.connections()]).toEqual([1, 2]);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}
