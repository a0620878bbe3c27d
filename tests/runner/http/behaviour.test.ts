// biome-ignore-all lint/suspicious/noTemplateCurlyInString: k6 names templated URLs with a literal ${}.
import { describe, expect, it } from 'vitest';
import { FakeVu, useLoopbackVu } from './vu-harness';

const env = useLoopbackVu();

const count = (samples: { metric: string }[], metric: string) =>
  samples.filter((s) => s.metric === metric).length;

describe('k6/http behaviour against a loopback server', () => {
  it('follows redirects, one set of samples per hop, tagged with each hop URL', async () => {
    const r = await env.vu.run(`
      const res = http.get('${env.server.url}/redirect/2');
      return [res.status, res.url, res.json('path')];
    `);
    expect(r.value).toEqual([200, `${env.server.url}/echo`, '/echo']);
    expect(count(r.samples, 'http_reqs')).toBe(3);
    const hops = r.samples.filter((s) => s.metric === 'http_reqs').map((s) => [s.tags.url, s.tags.status]);
    expect(hops).toEqual([
      [`${env.server.url}/redirect/2`, '302'],
      [`${env.server.url}/redirect/1`, '302'],
      [`${env.server.url}/echo`, '200'],
    ]);
  });

  it('answers a digest challenge as k6 does: a 401 then the authorised request, both expected responses', async () => {
    const base = env.server.url.replace('http://', 'http://alice:s3cret@');
    const before = env.server.seen.length;
    const r = await env.vu.run(`
      const get = http.get('${base}/digest-auth/alice/s3cret', { auth: 'digest' });
      const post = http.post('${base}/digest-auth/alice/s3cret?x=1', 'payload', { auth: 'digest' });
      const wrong = http.get('${base}/digest-auth/alice/other', { auth: 'digest' });
      return [get.status, get.json('authenticated'), post.status, post.json('body'), wrong.status];
    `);
    expect(r.value).toEqual([200, true, 200, 'payload', 401]);
    const reqs = r.samples.filter((s) => s.metric === 'http_reqs');
    expect(reqs.map((s) => s.tags.status)).toEqual(['401', '200', '401', '200', '401', '401']);
    // k6 expects the first 401 of a digest request; the authorised request is judged by the usual callback.
    expect(reqs.map((s) => s.tags.expected_response)).toEqual([
      'true',
      'true',
      'true',
      'true',
      'true',
      'false',
    ]);
    expect(r.samples.filter((s) => s.metric === 'http_req_failed').map((s) => s.value)).toEqual([
      0, 0, 0, 0, 0, 1,
    ]);
    // The URL's credentials are never sent as Basic auth, and the tags keep them masked.
    expect(reqs[0].tags.url).toBe(
      `${env.server.url.replace('http://', 'http://****:****@')}/digest-auth/alice/s3cret`,
    );
    expect(env.server.seen.slice(before)).toHaveLength(6);
  });

  it("res.submitForm() and res.clickLink() send k6's follow-up requests", async () => {
    const r = await env.vu.run(`
      const page = http.get('${env.server.url}/form-page');
      const posted = page.submitForm({ fields: { role: 'ops' }, params: { tags: { step: 'form' } } });
      const got = page.submitForm({ formSelector: '#g' });
      const clicked = page.clickLink({ selector: 'a.x' });
      return [posted.json('method'), posted.json('path'), posted.json('body'), got.json('path'), clicked.json('path')];
    `);
    expect(r.value).toEqual([
      'POST',
      '/echo?via=form',
      'go=Go&role=ops&user=ann',
      '/echo?q=1',
      '/echo?from=link',
    ]);
    const tagged = r.samples.find((s) => s.metric === 'http_reqs' && s.tags.step === 'form');
    expect(tagged?.tags.method).toBe('POST');
  });

  it('stops at params.redirects and returns the redirect', async () => {
    const r = await env.vu.run(
      `const res = http.get('${env.server.url}/redirect/3', { redirects: 1 }); return res.status;`,
    );
    expect(r.value).toBe(302);
    expect(count(r.samples, 'http_reqs')).toBe(2);
    expect(r.logs).toEqual([]);
  });

  it('307 resends method and body; 302 turns POST into a bodiless GET', async () => {
    const r = await env.vu.run(`
      const a = http.post('${env.server.url}/redirect-307', 'payload');
      const b = http.post('${env.server.url}/redirect/1', 'payload');
      return [a.json('method'), a.json('body'), b.json('method'), b.json('body')];
    `);
    expect(r.value).toEqual(['POST', 'payload', 'GET', '']);
  });

  it('stores cookies from every hop, sends them, and empties the VU jar at iteration start', async () => {
    env.vu.send({ t: 'iterationStart' });
    const r = await env.vu.run(`
      http.get('${env.server.url}/set-cookie?a=1&b=2');
      const hop = http.get('${env.server.url}/set-cookie-redirect');
      const jar = http.cookieJar().cookiesForURL('${env.server.url}/');
      const scoped = http.get('${env.server.url}/echo', { cookies: { a: { value: 'override', replace: true }, c: '3' } });
      return [hop.json('headers.cookie'), jar, scoped.json('headers.cookie')];
    `);
    // The redirect hop's Set-Cookie is stored before the next hop is sent.
    expect(r.value).toEqual([
      'a=1; b=2; hop=1',
      { a: ['1'], b: ['2'], hop: ['1'] },
      'b=2; hop=1; a=override; c=3',
    ]);
    env.vu.send({ t: 'iterationStart' });
    const after = await env.vu.run(
      `return http.get('${env.server.url}/echo').json('headers.cookie') ?? null;`,
    );
    expect(after.value).toBeNull();
  });

  it('noCookiesReset keeps the VU jar across iterations; params.jar uses another jar', async () => {
    const local = await FakeVu.start(env.pool, 12, { noCookiesReset: true });
    try {
      local.send({ t: 'iterationStart' });
      await local.run(`http.get('${env.server.url}/set-cookie?keep=1');`);
      local.send({ t: 'iterationStart' });
      const r = await local.run(`
        const own = new http.CookieJar();
        http.get('${env.server.url}/set-cookie?mine=2', { jar: own });
        return [http.get('${env.server.url}/echo').json('headers.cookie'), own.cookiesForURL('${env.server.url}/'),
                http.cookieJar().cookiesForURL('${env.server.url}/')];
      `);
      expect(r.value).toEqual(['keep=1', { mine: ['2'] }, { keep: ['1'] }]);
    } finally {
      await local.close();
    }
  });

  it('res.cookies lists the cookies the response set', async () => {
    const r = await env.vu.run(`return http.get('${env.server.url}/set-cookie?sid=x').cookies;`);
    expect(r.value).toEqual({
      sid: [
        {
          name: 'sid',
          value: 'x',
          domain: '127.0.0.1',
          path: '/',
          httpOnly: false,
          secure: false,
          maxAge: 0,
          expires: 0,
        },
      ],
    });
  });

  it('batch: array and object forms keep their shape', async () => {
    const r = await env.vu.run(`
      const arr = http.batch(['${env.server.url}/status/201', ['POST', '${env.server.url}/echo', 'x'], { method: 'get', url: '${env.server.url}/status/404' }]);
      const obj = http.batch({ a: '${env.server.url}/status/202', b: { url: '${env.server.url}/echo', body: 'dropped' } });
      return [arr.map((r) => r.status), arr[1].json('body'), Object.keys(obj), obj.a.status, obj.b.json('method'), obj.b.json('body')];
    `);
    expect(r.value).toEqual([[201, 200, 404], 'x', ['a', 'b'], 202, 'GET', '']);
    expect(count(r.samples, 'http_reqs')).toBe(5);
  });

  it('batchPerHost limits parallel requests to one host', async () => {
    const local = await FakeVu.start(env.pool, 2, { batchPerHost: 1 });
    try {
      const start = env.server.seen.length;
      const r = await local.run(
        `return http.batch(['${env.server.url}/delay/30', '${env.server.url}/delay/30', '${env.server.url}/delay/30']).map((r) => r.status);`,
      );
      expect(r.value).toEqual([200, 200, 200]);
      expect(env.server.seen.slice(start)).toEqual(['GET /delay/30', 'GET /delay/30', 'GET /delay/30']);
      // One connection at a time: every request after the first reuses the single keep-alive connection.
      const connecting = r.samples.filter((s) => s.metric === 'http_req_connecting').map((s) => s.value);
      expect(connecting.filter((v) => v > 0).length).toBeLessThanOrEqual(1);
    } finally {
      await local.close();
    }
  });

  it('asyncRequest resolves to a Response; several run concurrently', async () => {
    const r = await env.vu.run(
      `
      const all = await Promise.all([1, 2, 3].map((i) => http.asyncRequest('GET', '${env.server.url}/status/20' + i)));
      return all.map((res) => res.status);
    `,
      true,
    );
    expect(r.value).toEqual([201, 202, 203]);
    expect(count(r.samples, 'http_reqs')).toBe(3);
  });

  it('decompresses gzip responses', async () => {
    const r = await env.vu.run(`return http.get('${env.server.url}/gzip').json();`);
    expect(r.value).toEqual({ zipped: true });
  });

  it('responseType binary and none', async () => {
    const r = await env.vu.run(`
      const bin = http.get('${env.server.url}/bytes/5', { responseType: 'binary' });
      const none = http.get('${env.server.url}/bytes/5', { responseType: 'none' });
      return [bin.body instanceof ArrayBuffer, Array.from(new Uint8Array(bin.body)), none.body];
    `);
    expect(r.value).toEqual([true, [7, 7, 7, 7, 7], null]);
  });

  it('discardResponseBodies makes none the default, overridable per request', async () => {
    const local = await FakeVu.start(env.pool, 3, { discardResponseBodies: true });
    try {
      const r = await local.run(`
        return [http.get('${env.server.url}/').body, http.get('${env.server.url}/', { responseType: 'text' }).body];
      `);
      expect(r.value).toEqual([null, 'ok']);
    } finally {
      await local.close();
    }
  });

  it('expectedStatuses and setResponseCallback(null)', async () => {
    const local = await FakeVu.start(env.pool, 4);
    try {
      const r = await local.run(`
        http.get('${env.server.url}/status/404', { responseCallback: http.expectedStatuses(404) });
        http.setResponseCallback(null);
        http.get('${env.server.url}/status/500');
      `);
      const failed = r.samples.filter((s) => s.metric === 'http_req_failed');
      expect(failed.map((s) => [s.value, s.tags.expected_response])).toEqual([[0, 'true']]);
      const reqs = r.samples.filter((s) => s.metric === 'http_reqs');
      expect(reqs[1].tags.expected_response).toBeUndefined();
    } finally {
      await local.close();
    }
  });

  it('http.url names the request with ${} placeholders; credentials are masked', async () => {
    const r = await env.vu.run(`
      const id = 42;
      http.get(http.url\`${env.server.url}/echo?id=\${id}\`);
      const res = http.get('${env.server.url.replace('http://', 'http://user:pw@')}/echo');
      return res.json('headers.authorization');
    `);
    expect(r.value).toBe(`Basic ${Buffer.from('user:pw').toString('base64')}`);
    const reqs = r.samples.filter((s) => s.metric === 'http_reqs');
    expect(reqs[0].tags).toMatchObject({
      url: `${env.server.url}/echo?id=42`,
      name: `${env.server.url}/echo?id=\${}`,
    });
    const masked = env.server.url.replace('http://', 'http://****:****@');
    expect(reqs[1].tags).toMatchObject({ url: `${masked}/echo`, name: `${masked}/echo` });
  });

  it('a Host header sets the request host; the method is sent as given', async () => {
    const r = await env.vu.run(`
      const res = http.request('PURGE', '${env.server.url}/echo', null, { headers: { Host: 'example.test' } });
      return [res.json('method'), res.json('headers.host')];
    `);
    expect(r.value).toEqual(['PURGE', 'example.test']);
  });

  it('multipart bodies with http.file', async () => {
    const r = await env.vu.run(`
      const res = http.post('${env.server.url}/echo', { f: http.file('abc', 'a.txt', 'text/plain'), k: 'v' });
      return [res.json('headers.content-type').startsWith('multipart/form-data; boundary='), res.json('body').includes('filename="a.txt"')];
    `);
    expect(r.value).toEqual([true, true]);
  });

  it('compression gzip sets Content-Encoding and compresses the body', async () => {
    const r = await env.vu.run(`
      const res = http.post('${env.server.url}/echo', 'a'.repeat(1000), { compression: 'gzip' });
      return [res.json('headers.content-encoding'), res.json('bodyBytes') < 100];
    `);
    expect(r.value).toEqual(['gzip', true]);
  });
});

describe('connection pools', () => {
  const connections = () => new Promise<number>((r) => env.server.server.getConnections((_e, n) => r(n)));
  const until = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 2000 && !(await check()); i++) await new Promise((r) => setTimeout(r, 5));
  };

  it('each VU has its own keep-alive pool, closed when the VU thread ends', async () => {
    const before = await connections();
    const a = await FakeVu.start(env.pool, 8);
    const b = await FakeVu.start(env.pool, 9);
    await a.run(`http.get('${env.server.url}/'); http.get('${env.server.url}/');`);
    await b.run(`http.get('${env.server.url}/');`);
    expect(await connections()).toBe(before + 2);
    await a.close();
    await b.close();
    await until(async () => (await connections()) === before);
    expect(await connections()).toBe(before);
  });

  it('noVUConnectionReuse closes the VU connections at iteration end', async () => {
    const before = await connections();
    const local = await FakeVu.start(env.pool, 11, { noVUConnectionReuse: true });
    try {
      await local.run(`http.get('${env.server.url}/');`);
      expect(await connections()).toBe(before + 1);
      local.send({ t: 'iterationEnd' });
      await until(async () => (await connections()) === before);
      expect(await connections()).toBe(before);
      const r = await local.run(`return http.get('${env.server.url}/').status;`);
      expect(r.value).toBe(200);
    } finally {
      await local.close();
    }
  });

  it('noConnectionReuse opens a new connection for every request', async () => {
    const local = await FakeVu.start(env.pool, 10, { noConnectionReuse: true });
    try {
      const r = await local.run(
        `return [1, 2, 3].map(() => http.get('${env.server.url}/echo').json('headers.connection'));`,
      );
      expect(r.value).toEqual(['close', 'close', 'close']);
    } finally {
      await local.close();
    }
  });
});

describe('isolation and interruption', () => {
  it('a 30 MB upload in one VU does not hold back another VU: its requests all finish during the upload', async () => {
    const uploader = await FakeVu.start(env.pool, 5);
    const other = await FakeVu.start(env.pool, 6);
    try {
      const start = env.server.seen.length;
      const upload = uploader.run(`
        const body = new Uint8Array(30 * 1024 * 1024).fill(1).buffer;
        return http.post('${env.server.url}/slow-upload', body, { timeout: '120s' }).body;
      `);
      while (!env.server.seen.slice(start).includes('POST /slow-upload'))
        await new Promise((r) => setTimeout(r, 5));
      const small = await other.run(`
        let ok = 0;
        for (let i = 0; i < 20; i++) if (http.get('${env.server.url}/status/200').status === 200) ok++;
        return ok;
      `);
      expect(small.value).toBe(20);
      const log = env.server.seen.slice(start);
      const smallDone = log.lastIndexOf('GET /status/200');
      const uploadDone = log.indexOf(`upload-complete ${30 * 1024 * 1024}`);
      expect(uploadDone === -1 || smallDone < uploadDone).toBe(true);
      expect((await upload).value).toBe(String(30 * 1024 * 1024));
    } finally {
      await uploader.close();
      await other.close();
    }
  });

  it('interrupting a VU blocked in a request cancels it and emits no sample for it', async () => {
    const local = await FakeVu.start(env.pool, 7);
    try {
      const start = env.server.seen.length;
      const pending = local.run(`http.get('${env.server.url}/delay/5000');`);
      while (!env.server.seen.slice(start).includes('GET /delay/5000'))
        await new Promise((r) => setTimeout(r, 5));
      local.interrupt();
      const r = await pending;
      expect(r.error).toBe('INTERRUPTED');
      expect(r.samples).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
