// LocalIo against a loopback server: replies with the body and the VU's keep-alive connection, cancellation (no reply,
// nothing left in flight) and a fresh pool after closeIdleConnections.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalIo } from './local-io';

let server: Server;
let origin = '';
const connections = new Set<unknown>();

beforeAll(async () => {
  server = createServer((req, res) => {
    connections.add(req.socket);
    // /slow never answers within the test: it is the request the tests cancel.
    if (req.url === '/slow') return;
    req.resume();
    req.on('end', () => res.end(`${req.method} ${req.url}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const get = (path: string) => ({
  method: 'GET',
  origin,
  path,
  headers: [] as string[],
  body: null,
  sharedBody: -1,
  timeoutMs: 5000,
  discardBody: false,
});

const newIo = () =>
  new LocalIo({ signal: new Int32Array(4), insecureSkipTLSVerify: false, noConnectionReuse: false });

const text = (body: ArrayBuffer[]) => Buffer.concat(body.map((b) => Buffer.from(b))).toString();

describe('LocalIo', () => {
  it('answers each request on the VU thread and reuses one keep-alive connection', async () => {
    connections.clear();
    const io = newIo();
    const first = await io.sendAsync(get('/a')).reply;
    const second = await io.sendAsync(get('/b')).reply;
    expect([first.status, text(first.body), second.status, text(second.body)]).toEqual([
      200,
      'GET /a',
      200,
      'GET /b',
    ]);
    expect(connections.size).toBe(1);
    expect(io.inFlight).toBe(0);
    io.closeIdleConnections();
  });

  it('drops a cancelled request: nothing in flight, and the next request still gets its reply', async () => {
    const io = newIo();
    const slow = io.sendAsync(get('/slow'));
    let settled = false;
    void slow.reply.then(() => {
      settled = true;
    });
    expect(io.inFlight).toBe(1);
    io.cancelAll();
    expect(io.inFlight).toBe(0);
    const next = await io.sendAsync(get('/after')).reply;
    expect([next.status, text(next.body), settled]).toEqual([200, 'GET /after', false]);
    io.closeIdleConnections();
  });

  it('opens a new connection after closeIdleConnections', async () => {
    connections.clear();
    const io = newIo();
    await io.sendAsync(get('/one')).reply;
    io.closeIdleConnections();
    await io.sendAsync(get('/two')).reply;
    expect(connections.size).toBe(2);
    io.closeIdleConnections();
  });
});
