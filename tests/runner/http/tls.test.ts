// TLS and HTTP/2 through the I/O worker, against loopback servers using a throwaway self-signed certificate for
// localhost/127.0.0.1 (fixtures/localhost-*.pem, generated for these tests only).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpIoPool } from '../../../runner/http/io-pool';
import { DIST_IO_WORKER, FakeVu } from './vu-harness';

const key = readFileSync(new URL('./fixtures/localhost-key.pem', import.meta.url));
const cert = readFileSync(new URL('./fixtures/localhost-cert.pem', import.meta.url));

let h1: Server;
let h2: Http2SecureServer;
let h1Url: string;
let h2Url: string;
let pool: HttpIoPool;

/** GET answers `text`; a body is answered with its length and SHA-256. */
function answer(text: string) {
  return async (
    req: IncomingMessage | Http2ServerRequest,
    res: ServerResponse | Http2ServerResponse,
  ): Promise<void> => {
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of req) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    res.end(req.method === 'GET' ? text : `${bytes} ${hash.digest('hex')}`);
  };
}

beforeAll(async () => {
  h1 = createServer({ key, cert }, answer('tls ok'));
  h2 = createSecureServer({ key, cert, allowHTTP1: false }, answer('h2 ok'));
  await new Promise<void>((r) => h1.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => h2.listen(0, '127.0.0.1', r));
  h1Url = `https://127.0.0.1:${(h1.address() as AddressInfo).port}`;
  h2Url = `https://127.0.0.1:${(h2.address() as AddressInfo).port}`;
  pool = await HttpIoPool.start({ workerFile: DIST_IO_WORKER });
});

afterAll(async () => {
  await pool?.close();
  h1?.closeAllConnections();
  await new Promise((r) => h1?.close(r));
  await new Promise((r) => h2?.close(r));
});

describe('TLS', () => {
  it('an untrusted certificate is error 1310 unless insecureSkipTLSVerify', async () => {
    const strict = await FakeVu.start(pool, 1);
    try {
      const r = await strict.run(
        `const res = http.get('${h1Url}/'); return [res.status, res.error_code, res.error];`,
      );
      expect(r.value).toEqual([0, 1310, 'x509: unknown authority']);
    } finally {
      await strict.close();
    }
  });

  it('reports tls_version, TLS handshake time on a new connection and none on reuse', async () => {
    const vu = await FakeVu.start(pool, 2, { insecureSkipTLSVerify: true });
    try {
      const r = await vu.run(`
        const a = http.get('${h1Url}/');
        const b = http.get('${h1Url}/');
        return [a.status, a.body, a.tls_version, a.proto, a.timings.tls_handshaking > 0, b.timings.tls_handshaking,
                a.timings.blocked >= a.timings.connecting + a.timings.tls_handshaking];
      `);
      expect(r.value).toEqual([200, 'tls ok', 'tls1.3', 'HTTP/1.1', true, 0, true]);
      expect(r.samples.find((s) => s.metric === 'http_reqs')?.tags.tls_version).toBe('tls1.3');
    } finally {
      await vu.close();
    }
  });

  it('tlsVersion and tlsCipherSuites choose what the handshake may agree on', async () => {
    const pinned = await FakeVu.start(pool, 5, {
      insecureSkipTLSVerify: true,
      tls: {
        minVersion: 'TLSv1.2',
        maxVersion: 'TLSv1.2',
        ciphers: 'ECDHE-RSA-AES256-GCM-SHA384:TLS_AES_128_GCM_SHA256',
      },
    });
    try {
      const r = await pinned.run(
        `const res = http.get('${h1Url}/'); return [res.status, res.tls_version, res.tls_cipher_suite];`,
      );
      expect(r.value).toEqual([200, 'tls1.2', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384']);
      expect(r.samples.find((s) => s.metric === 'http_reqs')?.tags.tls_version).toBe('tls1.2');
    } finally {
      await pinned.close();
    }
    // A server that stops at TLS 1.2 refuses a client that asks for TLS 1.3 at least: a TLS error, as in k6.
    const old = createServer({ key, cert, maxVersion: 'TLSv1.2' }, answer('old'));
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', r));
    const strict = await FakeVu.start(pool, 6, {
      insecureSkipTLSVerify: true,
      tls: { minVersion: 'TLSv1.3' },
    });
    try {
      const r = await strict.run(
        `const res = http.get('https://127.0.0.1:${(old.address() as AddressInfo).port}/'); return [res.status, res.error_code];`,
      );
      const [status, code] = r.value as [number, number];
      expect(status).toBe(0);
      expect(code).toBeGreaterThanOrEqual(1300);
      expect(code).toBeLessThan(1400);
    } finally {
      await strict.close();
      old.closeAllConnections();
      await new Promise((r) => old.close(r));
    }
  });

  it('negotiates HTTP/2 through ALPN', async () => {
    const vu = await FakeVu.start(pool, 3, { insecureSkipTLSVerify: true });
    try {
      const r = await vu.run(`
        const res = http.get('${h2Url}/');
        const again = http.batch(['${h2Url}/', '${h2Url}/', '${h2Url}/']);
        return [res.status, res.status_text, res.proto, res.body, res.tls_version, res.remote_ip,
                res.timings.tls_handshaking > 0, again.map((r) => [r.proto, r.timings.connecting])];
      `);
      expect(r.value).toEqual([
        200,
        '200 OK',
        'HTTP/2.0',
        'h2 ok',
        'tls1.3',
        '127.0.0.1',
        true,
        [
          ['HTTP/2.0', 0],
          ['HTTP/2.0', 0],
          ['HTTP/2.0', 0],
        ],
      ]);
      expect(r.samples.find((s) => s.metric === 'http_reqs')?.tags.proto).toBe('HTTP/2.0');
    } finally {
      await vu.close();
    }
  });

  it('large request bodies (shared buffer for sync calls, transferred for async ones) arrive intact on h2 and TLS', async () => {
    const vu = await FakeVu.start(pool, 4, { insecureSkipTLSVerify: true });
    try {
      const r = await vu.run(
        `
        const small = 'a'.repeat(300 * 1024);
        const big = 'b'.repeat(3 * 1024 * 1024);
        const pending = http.asyncRequest('POST', '${h2Url}/', small);
        return [http.post('${h2Url}/', big).body, http.post('${h1Url}/', small).body,
                http.post('${h1Url}/', big).body, (await pending).body];
      `,
        true,
      );
      const digest = (text: string) => `${text.length} ${createHash('sha256').update(text).digest('hex')}`;
      const small = digest('a'.repeat(300 * 1024));
      const big = digest('b'.repeat(3 * 1024 * 1024));
      expect(r.value).toEqual([big, small, big, small]);
    } finally {
      await vu.close();
    }
  });
});
