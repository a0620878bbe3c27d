// Large request bodies through the real I/O worker: sync calls use the VU's shared body buffer (shared-body.ts),
// batch and asyncRequest transfer theirs; every byte must arrive as encodeBody would have produced it.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNAL_INTERRUPT } from '../../../runner/modules/module-host';
import { FakeVu, useLoopbackVu } from './vu-harness';

const env = useLoopbackVu();

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

/** The same pseudo-random text the VU builds: mixed one-, two-, three- and four-byte UTF-8 characters. */
const TEXT_SOURCE = `(n) => { let s = ''; const parts = ['abc', 'é', '€', '\\u{1F600}', 'xyz ']; for (let i = 0; s.length < n; i++) s += parts[(i * 7) % 5] + i; return s.slice(0, n); }`;
// biome-ignore lint/security/noGlobalEval: the test builds the exact text the VU builds from the same source.
const text: (n: number) => string = eval(TEXT_SOURCE);

describe('large request bodies', () => {
  it('sync string and binary bodies arrive byte for byte, several times in a row (buffer reused and grown)', async () => {
    const r = await env.vu.run(`
      const text = ${TEXT_SOURCE};
      const out = [];
      for (const n of [3 * 1024 * 1024, 100 * 1024, 5 * 1024 * 1024]) out.push(http.post('${env.server.url}/sha256', text(n)).json());
      const bin = new Uint8Array(200 * 1024);
      for (let i = 0; i < bin.length; i++) bin[i] = (i * 31) & 255;
      out.push(http.post('${env.server.url}/sha256', bin.buffer).json());
      out.push(http.put('${env.server.url}/sha256', new Uint16Array(bin.buffer, 2, 40000)).json());
      return out;
    `);
    expect(r.error).toBeUndefined();
    const bin = new Uint8Array(200 * 1024).map((_, i) => (i * 31) & 255);
    const expected = [3 * 1024 * 1024, 100 * 1024, 5 * 1024 * 1024].map((n) => {
      const bytes = new TextEncoder().encode(text(n));
      return { bytes: bytes.length, sha256: sha256(bytes), type: null };
    });
    expected.push({ bytes: bin.length, sha256: sha256(bin), type: null });
    expected.push({ bytes: 80000, sha256: sha256(bin.subarray(2, 80002)), type: null });
    expect(r.value).toEqual(expected);
    const sizes = r.samples.filter((s) => s.metric === 'http_reqs').length;
    expect(sizes).toBe(5);
  });

  it('a 307 redirect resends the large body; form and compressed bodies keep their encoding', async () => {
    const r = await env.vu.run(`
      const body = 'q'.repeat(300 * 1024);
      const form = {}; for (let i = 0; i < 5000; i++) form['k' + i] = 'v'.repeat(20);
      return [
        http.post('${env.server.url}/redirect-307-sha256', body).json(),
        http.post('${env.server.url}/sha256', form).json(),
        http.post('${env.server.url}/sha256', body, { compression: 'gzip' }).json('bytes') > 0,
      ];
    `);
    expect(r.error).toBeUndefined();
    const [redirected, form, compressed] = r.value as Array<Record<string, unknown> | boolean>;
    expect(redirected).toEqual({ bytes: 300 * 1024, sha256: sha256('q'.repeat(300 * 1024)), type: null });
    // k6 (Go's url.Values.Encode) sorts the keys.
    const formText = Array.from({ length: 5000 }, (_, i) => `k${i}`)
      .sort()
      .map((k) => `${k}=${'v'.repeat(20)}`)
      .join('&');
    expect(form).toEqual({
      bytes: formText.length,
      sha256: sha256(formText),
      type: 'application/x-www-form-urlencoded',
    });
    expect(compressed).toBe(true);
    expect(r.samples.filter((s) => s.metric === 'http_reqs').map((s) => s.tags.status)).toEqual([
      '307',
      '200',
      '200',
      '200',
    ]);
  });

  it('batch and asyncRequest large bodies (transferred) arrive intact beside sync ones', async () => {
    const r = await env.vu.run(
      `
      const a = 'a'.repeat(256 * 1024);
      const b = 'b'.repeat(512 * 1024);
      const pending = http.asyncRequest('POST', '${env.server.url}/sha256', a);
      const sync = http.post('${env.server.url}/sha256', b).json('sha256');
      const batch = http.batch([['POST', '${env.server.url}/sha256', b], ['POST', '${env.server.url}/sha256', a]]).map((x) => x.json('sha256'));
      return [(await pending).json('sha256'), sync, ...batch];
    `,
      true,
    );
    expect(r.error).toBeUndefined();
    const a = sha256('a'.repeat(256 * 1024));
    const b = sha256('b'.repeat(512 * 1024));
    expect(r.value).toEqual([a, b, b, a]);
  });

  it('after an interrupted large upload the next large body is sent intact', async () => {
    const local = await FakeVu.start(env.pool, 2);
    try {
      const start = env.server.seen.length;
      const pending = local.run(
        `http.post('${env.server.url}/slow-upload', 'u'.repeat(20 * 1024 * 1024), { timeout: '60s' });`,
      );
      while (!env.server.seen.slice(start).includes('POST /slow-upload'))
        await new Promise((r) => setTimeout(r, 5));
      local.interrupt();
      expect((await pending).error).toBe('INTERRUPTED');
      Atomics.store(local.signal, SIGNAL_INTERRUPT, 0);
      const r = await local.run(
        `return http.post('${env.server.url}/sha256', 'w'.repeat(1024 * 1024)).json();`,
      );
      expect(r.value).toEqual({ bytes: 1024 * 1024, sha256: sha256('w'.repeat(1024 * 1024)), type: null });
    } finally {
      await local.close();
    }
  });
});
