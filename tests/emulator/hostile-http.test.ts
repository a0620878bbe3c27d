// Hostile input at the HTTP layer: gzip bombs stop at the body limit (counted without keeping the output when the
// gzip size field admits more), bodies cut short are a 400, bodies in flight across requests are bounded with a 429, "." and ".." never reach a namespace,
// and a client that goes away mid-body is one quiet log line, not a 500.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './harness';

let emulator: TestEmulator | null = null;
afterEach(async () => {
  await emulator?.close();
  emulator = null;
});

const MiB = 2 ** 20;

/**
 * A gzip body of `mib` MiB of zeros, about 1 KB per MiB, built without compressing it all: one fully flushed deflate
 * block of 1 MiB of zeros repeats (a full flush leaves no references across it). `claimedMib` sets the trailer's
 * size field, which is honest by default.
 */
function gzipBomb(mib: number, claimedMib = mib): Buffer {
  const zero = Buffer.alloc(MiB);
  const block = zlib.deflateRawSync(zero, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = zlib.crc32(zero, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE((claimedMib * MiB) % 2 ** 32, 4);
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
  return Buffer.concat([
    header,
    ...Array<Buffer>(mib).fill(block),
    zlib.deflateRawSync(Buffer.alloc(0)),
    trailer,
  ]);
}

interface Raw {
  status: number;
  headers: IncomingMessage['headers'];
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response fields.
  body: any;
}

/** A request exactly as given (fetch would resolve "." segments itself); `body` is sent whole unless `hold`. */
function raw(
  url: string,
  method: string,
  path: string,
  body: Buffer | string = '',
  headers: Record<string, string | number> = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}${path}`,
      { method, path, headers: { 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text ? JSON.parse(text) : null,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('gzip bodies', () => {
  it('three 600 MiB gzip bombs at once get 413 with the envelope, inflated without keeping it; memory stays put', async () => {
    emulator = await startTestEmulator();
    const bomb = gzipBomb(600);
    const url = emulator.url;
    expect(bomb.length).toBeLessThan(700_000);
    const before = process.memoryUsage().rss;
    const replies = await Promise.all(
      [1, 2, 3].map(() => raw(url, 'POST', '/v2/namespaces/bomb', bomb, { 'content-encoding': 'gzip' })),
    );
    for (const reply of replies) {
      expect(reply.status).toBe(413);
      expect(reply.body).toEqual({
        status: 'error',
        error: `request body exceeds the ${512 * MiB} byte limit of one write (turbopuffer allows 512 MB)`,
      });
    }
    // Before the fix each inflated to the 512 MiB limit: RSS grew by about 1.5 GB.
    expect(process.memoryUsage().rss - before).toBeLessThan(128 * MiB);
  });

  it('a bomb whose trailer lies about its size is stopped at the body limit as it inflates', async () => {
    emulator = await startTestEmulator({ maxBodyBytes: 4 * MiB });
    const reply = await raw(emulator.url, 'POST', '/v2/namespaces/bomb', gzipBomb(64, 1), {
      'content-encoding': 'gzip',
    });
    expect(reply.status).toBe(413);
    expect(reply.body.error).toMatch(/exceeds the 4194304 byte limit/);
    // The emulator still answers normally.
    expect((await emulator.post('/v2/namespaces/ok', { upsert_rows: [{ id: 1 }] })).status).toBe(200);
  });

  it('a gzip body cut short gets 400 naming the body, also when its last bytes read as a size above the limit', async () => {
    emulator = await startTestEmulator({ maxBodyBytes: 4 * MiB });
    const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, text: `row ${i} ${Math.sin(i)}` }));
    const whole = zlib.gzipSync(Buffer.from(JSON.stringify({ upsert_rows: rows })));
    // Cut where the 4 bytes before the cut, read as a gzip size field, say more than the 4 MiB limit.
    let cut = whole.length - 100;
    while (whole.readUInt32LE(cut - 4) <= 4 * MiB) cut--;
    for (const body of [whole.subarray(0, cut), whole.subarray(0, whole.length - 3)]) {
      const reply = await raw(emulator.url, 'POST', '/v2/namespaces/cut', body, {
        'content-encoding': 'gzip',
      });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatch(/^request body is not valid gzip: unexpected end of file/);
    }
    expect((await emulator.get('/v2/namespaces/cut/metadata')).status).toBe(404);
  });

  it('a gzip body that is not gzip gets 400 naming the problem', async () => {
    emulator = await startTestEmulator();
    const reply = await raw(emulator.url, 'POST', '/v2/namespaces/x', 'not gzip at all', {
      'content-encoding': 'gzip',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(/^request body is not valid gzip/);
  });
});

/** A write of about `bytes` bytes: one row with a long unfilterable string. */
const padded = (bytes: number) => ({
  upsert_rows: [{ id: 1, pad: 'x'.repeat(bytes) }],
  schema: { pad: { type: 'string', filterable: false } },
});

/** Sends only the headers of a request that declares `length` body bytes, and reads the answer. */
function headersOnly(url: string, length: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-length': length } }, (res) => {
      let text = '';
      res.on('data', (d) => {
        text += String(d);
      });
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe('bytes in flight', () => {
  it('a body that would pass --max-inflight-bytes while another is in flight gets 429 with a retry hint', async () => {
    emulator = await startTestEmulator({ maxBodyBytes: 8 * MiB, maxInflightBytes: 8 * MiB });
    const url = new URL(emulator.url);
    // A: declares 6 MiB and sends only its first bytes, so the emulator holds its body open.
    const a = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => a.once('connect', () => resolve()));
    const answerA = new Promise<string>((resolve) => {
      let text = '';
      a.on('data', (d) => {
        text += String(d);
        if (text.includes('\r\n\r\n') && text.endsWith('}')) resolve(text);
      });
    });
    const bodyA = Buffer.from(JSON.stringify(padded(6 * MiB - 100)));
    a.write(`POST /v2/namespaces/held HTTP/1.1\r\nhost: x\r\ncontent-length: ${bodyA.length}\r\n\r\n`);
    a.write(bodyA.subarray(0, 1000));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // B: 4 MiB more would pass the 8 MiB budget.
    const b = await headersOnly(`${emulator.url}/v2/namespaces/other`, 4 * MiB);
    expect(b.status).toBe(429);
    expect(b.headers['retry-after-ms']).toBe('200');
    expect(b.body.status).toBe('error');
    expect(b.body.error).toMatch(
      /holds 6\.0 MiB of request bodies in flight .* 8\.0 MiB limit \(--max-inflight-bytes\)/,
    );
    // Once A is done, B's size fits again.
    a.write(bodyA.subarray(1000));
    expect(await answerA).toMatch(/^HTTP\/1\.1 200/);
    a.destroy();
    const retried = await emulator.post('/v2/namespaces/other', padded(4 * MiB - 100));
    expect(retried.status).toBe(200);
  });

  it('a request alone is always let in, even above the budget', async () => {
    emulator = await startTestEmulator({ maxBodyBytes: 8 * MiB, maxInflightBytes: 1 * MiB });
    const reply = await emulator.post('/v2/namespaces/big', padded(3 * MiB));
    expect(reply.status).toBe(200);
  });
});

describe('paths and names', () => {
  it.each([
    ['/v2/namespaces/./query', '"."'],
    ['/v2/namespaces/%2e/query', '"."'],
    ['/v2/namespaces/..', '".."'],
    ['/v2/namespaces/%2E%2E', '".."'],
  ])('POST %s is a 400 naming the namespace %s, and creates nothing', async (path, name) => {
    emulator = await startTestEmulator();
    const reply = await raw(emulator.url, 'POST', path, JSON.stringify({ upsert_rows: [{ id: 1 }] }));
    expect(reply.status).toBe(400);
    expect(reply.body.error).toContain(`namespace name ${name}: "." and ".." cannot name a namespace`);
    expect((await emulator.get('/v1/namespaces')).body.namespaces).toEqual([]);
  });

  it('names made of dots and other characters are fine', async () => {
    emulator = await startTestEmulator();
    expect(
      (await raw(emulator.url, 'POST', '/v2/namespaces/...', JSON.stringify({ upsert_rows: [{ id: 1 }] })))
        .status,
    ).toBe(200);
  });
});

describe('clients that go away', () => {
  it('a client that disconnects mid-body is logged as one line without a stack, not as a 500', async () => {
    emulator = await startTestEmulator();
    const url = new URL(emulator.url);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      'POST /v2/namespaces/gone HTTP/1.1\r\nhost: x\r\ncontent-length: 100000\r\n\r\n{"upsert_rows":[',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    for (let i = 0; i < 100 && emulator.logs.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(emulator.logs).toEqual([
      'client went away during POST /v2/namespaces/gone: the client closed the connection after 16 body bytes; request dropped',
    ]);
    // Nothing was created, and the emulator serves the next request.
    expect((await emulator.get('/v1/namespaces')).body.namespaces).toEqual([]);
  });
});

describe('requests that are not HTTP', () => {
  /** Sends bytes as they are and reads the reply until the emulator closes the connection. */
  async function exchange(bytes: string): Promise<{ status: number; contentType: string; body: unknown }> {
    const url = new URL((emulator as TestEmulator).url);
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.write(bytes);
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const text = Buffer.concat(chunks).toString();
    const [head, body] = text.split('\r\n\r\n');
    return {
      status: Number(/^HTTP\/1\.1 (\d+) /.exec(head)?.[1]),
      contentType: /content-type: (.*)/i.exec(head)?.[1] ?? '',
      body: JSON.parse(body),
    };
  }

  it("a request line, header or chunk Node's parser refuses gets the envelope, not a bare 400", async () => {
    emulator = await startTestEmulator();
    expect(await exchange('GARBAGE\r\n\r\n')).toEqual({
      status: 400,
      contentType: 'application/json',
      body: {
        status: 'error',
        error:
          'malformed HTTP request: Invalid method encountered (HPE_INVALID_METHOD); send a well-formed HTTP/1.1 request',
      },
    });
    const chunk = await exchange(
      'POST /v2/namespaces/h HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
    );
    expect([chunk.status, (chunk.body as { error: string }).error]).toEqual([
      400,
      'malformed HTTP request: Invalid character in chunk size (HPE_INVALID_CHUNK_SIZE); send a well-formed HTTP/1.1 request',
    ]);
    const headers = await exchange(
      `GET /v1/namespaces HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(headers.status).toBe(431);
    expect((headers.body as { error: string }).error).toMatch(
      /^request headers exceed \d+ bytes: .*; send fewer or shorter headers$/,
    );
    // The refused chunk is one line naming it, not a client that went away; the emulator serves the next request.
    for (let i = 0; i < 100 && emulator.logs.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(emulator.logs).toEqual(['malformed HTTP body during POST /v2/namespaces/h; request dropped']);
    expect((await emulator.get('/v1/namespaces')).body.namespaces).toEqual([]);
  });
});
