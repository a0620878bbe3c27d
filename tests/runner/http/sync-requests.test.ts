import { describe, expect, it } from 'vitest';
import { K6_HTTP_SAMPLE_ORDER } from './k6-http-samples';
import { startLoopbackServer } from './loopback-server';
import { FakeVu, useLoopbackVu } from './vu-harness';

const env = useLoopbackVu();

describe('k6/http sync requests through the I/O worker', () => {
  it('GET returns status, body, headers, timings and emits the nine samples in order', async () => {
    const r = await env.vu.run(`
      const res = http.get('${env.server.url}/echo?x=1', { headers: { 'X-Test': 'yes' }, tags: { my: 'tag' } });
      return { status: res.status, status_text: res.status_text, proto: res.proto, body: res.json(),
               ct: res.headers['Content-Type'], multi: res.headers['X-Multi'], timings: res.timings,
               error: res.error, error_code: res.error_code, url: res.url, remote_ip: res.remote_ip };
    `);
    expect(r.error).toBeUndefined();
    // biome-ignore lint/suspicious/noExplicitAny: a JSON snapshot of a k6 Response, probed field by field.
    const v = r.value as Record<string, any>;
    expect(v.status).toBe(200);
    expect(v.status_text).toBe('200 OK');
    expect(v.proto).toBe('HTTP/1.1');
    expect(v.body.method).toBe('GET');
    expect(v.body.path).toBe('/echo?x=1');
    expect(v.body.headers['x-test']).toBe('yes');
    expect(v.body.headers['user-agent']).toBe('bench-test/1');
    expect(v.ct).toBe('application/json');
    expect(v.multi).toBe('a, b');
    expect(v.error).toBe('');
    expect(v.error_code).toBe(0);
    expect(v.url).toBe(`${env.server.url}/echo?x=1`);
    expect(v.remote_ip).toBe('127.0.0.1');
    const t = v.timings;
    expect(t.duration).toBeCloseTo(t.sending + t.waiting + t.receiving, 9);
    for (const k of ['blocked', 'connecting', 'tls_handshaking', 'sending', 'waiting', 'receiving']) {
      expect(t[k]).toBeGreaterThanOrEqual(0);
    }
    expect(t.waiting).toBeGreaterThan(0);
    expect(r.samples.map((s) => s.metric)).toEqual(K6_HTTP_SAMPLE_ORDER);
    expect(new Set(r.samples.map((s) => s.time)).size).toBe(1);
    expect(r.samples[0].tags).toEqual({
      scenario: 'default',
      group: '',
      my: 'tag',
      method: 'GET',
      url: `${env.server.url}/echo?x=1`,
      name: `${env.server.url}/echo?x=1`,
      status: '200',
      proto: 'HTTP/1.1',
      expected_response: 'true',
    });
    expect(r.samples[1].value).toBeCloseTo(t.duration, 9);
    expect(r.samples[8].value).toBe(0);
    expect(r.data.sent).toBeGreaterThan(50);
    expect(r.data.received).toBeGreaterThan(100);
  });

  it('phases are never negative and add up, for small, medium and large bodies', async () => {
    const r = await env.vu.run(`
      return [0, 30 * 1024, 4 * 1024 * 1024].map((n) => {
        const res = http.post('${env.server.url}/echo', new Uint8Array(n).buffer);
        return [res.json('bodyBytes'), res.timings];
      });
    `);
    for (const [bytes, t] of r.value as Array<[number, Record<string, number>]>) {
      expect([0, 30 * 1024, 4 * 1024 * 1024]).toContain(bytes);
      for (const k of ['blocked', 'connecting', 'tls_handshaking', 'sending', 'waiting', 'receiving']) {
        expect(t[k]).toBeGreaterThanOrEqual(0);
      }
      expect(t.duration).toBeCloseTo(t.sending + t.waiting + t.receiving, 9);
    }
  });

  it('data_sent and data_received add up to exactly the bytes on the wire', async () => {
    const sockets: import('node:net').Socket[] = [];
    const own = await startLoopbackServer();
    own.server.on('connection', (socket) => sockets.push(socket));
    const local = await FakeVu.start(env.pool, 2);
    try {
      const r = await local.run(`
        http.get('${own.url}/echo');
        http.post('${own.url}/echo', 'x'.repeat(5000));
        http.get('${own.url}/bytes/100000');
      `);
      expect(sockets).toHaveLength(1);
      expect(r.data).toEqual({ sent: sockets[0].bytesRead, received: sockets[0].bytesWritten });
    } finally {
      await local.close();
      await own.close();
    }
  });

  it('a new connection has connecting time, a reused one has none', async () => {
    const r = await env.vu.run(`
      const a = http.get('${env.server.url}/', { tags: { n: 'a' } });
      const b = http.get('${env.server.url}/', { tags: { n: 'b' } });
      return [a.timings.connecting, b.timings.connecting];
    `);
    const [, second] = r.value as number[];
    expect(second).toBe(0);
  });

  it('POST/PUT/PATCH/DELETE/OPTIONS send their method and body', async () => {
    const r = await env.vu.run(`
      return [http.post('${env.server.url}/echo', 'p'), http.put('${env.server.url}/echo', 'u'),
              http.patch('${env.server.url}/echo', 'a'), http.del('${env.server.url}/echo', 'd'),
              http.options('${env.server.url}/echo'), http.request('POST', '${env.server.url}/echo', { b: 2, a: 1 })]
        .map((res) => [res.json('method'), res.json('body'), res.json('headers.content-type') ?? null]);
    `);
    expect(r.value).toEqual([
      ['POST', 'p', null],
      ['PUT', 'u', null],
      ['PATCH', 'a', null],
      ['DELETE', 'd', null],
      ['OPTIONS', '', null],
      ['POST', 'a=1&b=2', 'application/x-www-form-urlencoded'],
    ]);
  });

  it('HTTP errors: error_code 1000+status, http_req_failed 1, error tag absent', async () => {
    const r = await env.vu.run(`
      const res = http.get('${env.server.url}/status/503');
      return [res.status, res.error, res.error_code];
    `);
    expect(r.value).toEqual([503, '', 1503]);
    const failed = r.samples.find((s) => s.metric === 'http_req_failed');
    expect(failed?.value).toBe(1);
    expect(failed?.tags).toMatchObject({ status: '503', error_code: '1503', expected_response: 'false' });
    expect(failed?.tags.error).toBeUndefined();
  });

  it('connection refused: status 0, error_code 1212, logged as Request Failed, samples still emitted', async () => {
    const r = await env.vu.run(`
      const res = http.get('http://127.0.0.1:1/');
      return [res.status, res.error, res.error_code, res.body];
    `);
    expect(r.value).toEqual([0, 'dial: connection refused', 1212, null]);
    expect(r.logs).toEqual([
      { level: 'warn', message: 'Request Failed', fields: { error: 'dial: connection refused' } },
    ]);
    expect(r.samples.map((s) => s.metric)).toEqual(K6_HTTP_SAMPLE_ORDER);
    expect(r.samples[0].tags).toMatchObject({
      status: '0',
      error_code: '1212',
      error: 'dial: connection refused',
    });
    expect(r.samples[0].tags.proto).toBeUndefined();
  });

  it('timeout: error_code 1050 "request timeout"', async () => {
    const r = await env.vu.run(`
      const res = http.get('${env.server.url}/delay/2000', { timeout: '100ms' });
      return [res.status, res.error, res.error_code];
    `);
    expect(r.value).toEqual([0, 'request timeout', 1050]);
  });

  it('throw: true turns a network error into an exception', async () => {
    const r = await env.vu.run(`http.get('http://127.0.0.1:1/', { throw: true });`);
    expect(r.error).toBe('dial: connection refused');
  });

  it('an invalid URL is a status-0 response with error_code 1020 and no samples', async () => {
    const r = await env.vu.run(`const res = http.get('not a url'); return [res.status, res.error_code];`);
    expect(r.value).toEqual([0, 1020]);
    expect(r.samples).toEqual([]);
  });

  it('refuses requests in the init context', async () => {
    env.vu.send({ t: 'init', value: true });
    const r = await env.vu.run(`http.get('${env.server.url}/');`);
    const b = await env.vu.run(`http.batch(['${env.server.url}/']);`);
    env.vu.send({ t: 'init', value: false });
    expect(r.error).toBe('Making http requests in the init context is not supported');
    expect(b.error).toBe('Using batch in the init context is not supported');
  });
});
