// k6/websockets against a loopback WebSocket echo server this test starts (the `ws` library's server): the events a
// script sees, and the ws_* metrics with k6's tags in the --out json stream.
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { bench, fixture, readNdjson, scratch } from './harness';

let server: WebSocketServer;
let url = '';
const work = scratch();

beforeAll(async () => {
  server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    handleProtocols: (protocols) => [...protocols][0] ?? false,
  });
  server.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
  await new Promise((resolve) => server.once('listening', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const client of server.clients) client.terminate();
  await new Promise((resolve) => server.close(resolve));
  work.cleanup();
});

describe('k6/websockets', () => {
  it('runs an echo session with k6 events and emits ws_* metrics with k6 tags', async () => {
    for (const threads of [[], ['--vu-threads', '0']]) {
      const out = join(work.dir, `ws${threads.length}.json`);
      const r = await bench([
        'run',
        '-q',
        '--iterations',
        '1',
        ...threads,
        '-e',
        `WS_URL=${url}`,
        '--out',
        `json=${out}`,
        fixture('websockets-echo.js'),
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 3 out of 3/);
      expect(r.stdout).toMatch(/WEBSOCKET\n/);
      const points = readNdjson(out).filter((l) => l.type === 'Point');
      const of = (metric: string) => points.filter((p) => p.metric === metric);
      expect(of('ws_sessions').map((p) => p.data.value)).toEqual([1]);
      expect(of('ws_msgs_sent').length).toBe(2);
      expect(of('ws_msgs_received').length).toBe(2);
      expect(of('ws_connecting').length).toBe(1);
      expect(of('ws_session_duration').length).toBe(1);
      expect(of('ws_ping').length).toBe(1);
      expect(of('ws_sessions')[0].data.tags).toMatchObject({
        url: `${url}/echo`,
        name: `${url}/echo`,
        status: '101',
        subproto: 'chat',
        scenario: 'default',
        group: '',
        my_tag: 'mine',
      });
    }
  });

  it('k6/ws: the blocking connect() runs handlers and socket timers, then returns, with ws_* metrics', async () => {
    const out = join(work.dir, 'legacy.json');
    const r = await bench([
      'run',
      '-q',
      '--iterations',
      '1',
      '-e',
      `WS_URL=${url}`,
      '--out',
      `json=${out}`,
      fixture('ws-legacy.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 3 out of 3/);
    const points = readNdjson(out).filter((l) => l.type === 'Point');
    const of = (metric: string) => points.filter((p) => p.metric === metric);
    expect(of('ws_sessions').length).toBe(1);
    expect(of('ws_msgs_sent').length).toBe(2);
    expect(of('ws_msgs_received').length).toBe(2);
    expect(of('ws_ping').length).toBe(1);
    expect(of('ws_session_duration')[0].data.value).toBeGreaterThanOrEqual(200);
    expect(of('ws_sessions')[0].data.tags).toMatchObject({
      url: `${url}/echo`,
      status: '101',
      my_tag: 'legacy',
    });
  });
});
