// Remote modules as k6 loads them, against a loopback module server this test starts: a jslib-like module of our own
// (ES module with relative and root-relative imports of its own, and a CommonJS one), fetched at load, cached so a
// run with the server stopped still loads them, `--offline`, k6's error for a module that cannot be fetched, and
// `bench vendor`. Nothing here reaches beyond 127.0.0.1.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bench, scratch } from './harness';

const MODULES: Record<string, string> = {
  '/lib/1.0.0/index.js': [
    "import { b64encode } from 'k6/encoding';",
    "import { wrap } from './util.js';",
    'export function encoded(text) { return wrap(b64encode(text)); }',
  ].join('\n'),
  '/lib/1.0.0/util.js':
    "import { PREFIX } from '/lib/common/prefix.js';\nexport const wrap = (s) => PREFIX + s;",
  '/lib/common/prefix.js': "export const PREFIX = 'lib:';",
  '/cjs/1.0.0/index.js': 'exports.greet = function (name) { return "hi " + name; };',
  '/lib/1.0.0/boom.js': "export function boom() {\n  throw new Error('boom');\n}",
};

let server: Server;
let base = '';
const seen: string[] = [];
const work = scratch();
const cache = join(work.dir, 'cache');
const script = join(work.dir, 'script.js');

function source(origin: string): string {
  return [
    "import { check } from 'k6';",
    `import { encoded } from '${origin}/lib/1.0.0/index.js';`,
    `import { greet } from '${origin}/cjs/1.0.0/index.js';`,
    'export default function () {',
    "  check(null, { 'remote ES module': () => encoded('k6') === 'lib:azY=', 'remote CommonJS module': () => greet('k6') === 'hi k6' });",
    '}',
  ].join('\n');
}

const run = (args: string[], file = script, env: Record<string, string> = {}) =>
  bench(['run', '-q', ...args, file], { BENCH_MODULE_CACHE: cache, ...env });

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const body = MODULES[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/javascript' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(script, source(base));
});

afterAll(async () => {
  if (server.listening) await new Promise((resolve) => server.close(resolve));
  work.cleanup();
});

describe('remote modules', () => {
  it("fetches them at load (with k6's _k6=1 query), relative imports resolved against their own URL", async () => {
    const r = await run([]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 2 out of 2/);
    expect(seen).toEqual(
      expect.arrayContaining([
        '/lib/1.0.0/index.js?_k6=1',
        '/lib/1.0.0/util.js?_k6=1',
        '/lib/common/prefix.js?_k6=1',
        '/cjs/1.0.0/index.js?_k6=1',
      ]),
    );
  });

  it("a missing module is k6's error, exit 107", async () => {
    const missing = join(work.dir, 'missing.js');
    writeFileSync(missing, `import '${base}/lib/9.9.9/index.js';\nexport default function () {}`);
    const r = await run([], missing);
    expect(r.code).toBe(107);
    expect(r.stderr).toContain(
      `The moduleSpecifier "${base}/lib/9.9.9/index.js" couldn't be retrieved from the resolved url "${base}/lib/9.9.9/index.js". Error : "not found: ${base}/lib/9.9.9/index.js"`,
    );
  });

  it('an error in a remote module is logged with frames naming its URL', async () => {
    const boom = join(work.dir, 'boom.js');
    writeFileSync(
      boom,
      `import { boom } from '${base}/lib/1.0.0/boom.js';\nexport default function () { boom(); }`,
    );
    for (const threads of [[], ['--vu-threads', '0']]) {
      const r = await run(threads, boom);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`at boom (${base}/lib/1.0.0/boom.js:2:`);
    }
  });

  it('bench vendor writes the script with its remote modules bundled in, k6 modules left as imports', async () => {
    const out = join(work.dir, 'vendored.js');
    const r = await bench(['vendor', '-o', out, script], { BENCH_MODULE_CACHE: cache });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/from "k6\/encoding"/);
    expect(text).not.toMatch(/(import|from)\s*["']http/);
    expect(text).toContain('lib:');
  });

  it("with the server stopped: the cache serves a second run, --offline names an uncached URL, no cache is k6's error", async () => {
    await new Promise((resolve) => server.close(resolve));
    const cached = await run([]);
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.stdout).toMatch(/checks_succeeded\.*: 100\.00% 2 out of 2/);
    expect(cached.stderr).toMatch(/could not be fetched \(Get .*connection refused\); using the copy cached/);

    const offline = await run(['--offline']);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stderr).not.toMatch(/could not be fetched/);

    const uncached = join(work.dir, 'uncached.js');
    writeFileSync(uncached, `import '${base}/lib/2.0.0/index.js';\nexport default function () {}`);
    const refused = await run(['--offline'], uncached);
    expect(refused.code).toBe(107);
    expect(refused.stderr).toContain(
      `remote module ${base}/lib/2.0.0/index.js is not in bench's module cache`,
    );

    const down = await run([], uncached);
    expect(down.code).toBe(107);
    expect(down.stderr).toMatch(
      new RegExp(
        `couldn't be retrieved from the resolved url "${base}/lib/2.0.0/index.js"\\. Error : "Get .*connection refused"`,
      ),
    );

    // The vendored script needs no cache and no server.
    const vendored = await run(['--offline'], join(work.dir, 'vendored.js'), {
      BENCH_MODULE_CACHE: join(work.dir, 'empty'),
    });
    expect(vendored.code, vendored.stderr).toBe(0);
    expect(vendored.stdout).toMatch(/checks_succeeded\.*: 100\.00% 2 out of 2/);
  });

  it('http: beyond loopback is refused before any fetch, as k6 refuses http:', async () => {
    const far = join(work.dir, 'far.js');
    writeFileSync(far, "import 'http://example.invalid/x.js';\nexport default function () {}");
    const r = await run([], far);
    expect(r.code).toBe(107);
    expect(r.stderr).toMatch(
      /only supported schemes for imports are file and https, http:\/\/example.invalid\/x.js has `http`/,
    );
  });
});
