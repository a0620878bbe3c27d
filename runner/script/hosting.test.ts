import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/temp-dir';
import { applyInsertions } from './await-edits';
import { loadScript } from './bundle';
import { type HostingVerdict, hostingVerdict } from './hosting';

const dir = tempDir('hosting-test-');
let n = 0;

/** The verdict on a k6 script (bundled as the runner bundles it for hosted VUs) and the rewritten code's lines. */
async function verdictOf(source: string): Promise<{ verdict: HostingVerdict; lines: string[] }> {
  const file = join(dir, `script${n++}.js`);
  writeFileSync(file, source);
  const script = await loadScript(file, { hosted: true });
  try {
    const code = readFileSync(script.hostedScriptPath as string, 'utf8');
    const verdict = hostingVerdict(code);
    const edited = verdict.kind === 'awaits' ? applyInsertions(code, verdict.edits) : code;
    const lines = edited
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('//'));
    return { verdict, lines };
  } finally {
    script.dispose();
  }
}

async function refusal(source: string): Promise<string> {
  const { verdict } = await verdictOf(source);
  expect(verdict.kind).toBe('threads');
  return verdict.kind === 'threads' ? verdict.reason : '';
}

const HTTP = "import http from 'k6/http';\nimport { check, group, sleep } from 'k6';\n";

describe('hostingVerdict: as-is', () => {
  it('hosts an async script unchanged', async () => {
    const { verdict } = await verdictOf(
      `${HTTP}export default async function () { const r = await http.asyncRequest('GET', 'http://127.0.0.1/'); check(r, { ok: (x) => x.status === 200 }); }`,
    );
    expect(verdict).toEqual({ kind: 'as-is' });
  });

  it('hosts unchanged a script whose blocking calls are all in setup, teardown, handleSummary and what only they call', async () => {
    const { verdict } = await verdictOf(`${HTTP}
function seed(n) { for (let i = 0; i < n; i++) http.post('http://127.0.0.1/seed', String(i)); sleep(1); }
const makeTeardown = () => (data) => http.del('http://127.0.0.1/' + data.ns);
export function setup() { seed(3); return { ns: 'a' }; }
export const teardown = makeTeardown();
export default async function (data) { await http.asyncRequest('GET', 'http://127.0.0.1/' + data.ns); }
`);
    expect(verdict).toEqual({ kind: 'as-is' });
  });
});

describe('hostingVerdict: blocking calls become awaits', () => {
  it('makes the exec function async and awaits http.get and sleep', async () => {
    const { verdict, lines } = await verdictOf(
      `${HTTP}export default function () { const r = http.get('http://127.0.0.1/'); sleep(0.1); return r.status; }`,
    );
    expect(verdict.kind).toBe('awaits');
    expect(lines).toContain(`async function script${n - 1}_default() {`);
    expect(lines).toContain('const r = (await http_default.get("http://127.0.0.1/"));');
    expect(lines).toContain('(await sleep(0.1));');
  });

  it("follows the script's own functions, arrow constants, class and object methods and group callbacks", async () => {
    const { verdict, lines } = await verdictOf(`${HTTP}
class Client { constructor(base) { this.base = base; } query(q) { return http.post(this.base + '/query', q); } }
const api = { ping() { return http.get('http://127.0.0.1/ping'); }, pong: () => http.get('http://127.0.0.1/pong') };
const twice = (c) => [c.query('a'), c.query('b')];
function both(c) { return twice(c).concat([api.ping(), api.pong()]); }
const client = new Client('http://127.0.0.1');
export default function () {
  group('all', () => { both(client); });
  group('none', () => 1 + 1);
  const n = [1, 2].map((x) => x * 2);
  check(n, { two: (v) => v.length === 2 });
}
`);
    expect(verdict.kind).toBe('awaits');
    expect(lines).toEqual(
      expect.arrayContaining([
        'async query(q) {',
        'return (await http_default.post(this.base + "/query", q));',
        'var api = { async ping() {',
        '}, pong: async () => (await http_default.get("http://127.0.0.1/pong")) };',
        'var twice = async (c) => [(await c.query("a")), (await c.query("b"))];',
        'async function both(c) {',
        'return (await twice(c)).concat([(await api.ping()), (await api.pong())]);',
        '(await group("all", async () => {',
        '(await both(client));',
        'group("none", () => 1 + 1);',
        'const n = [1, 2].map((x) => x * 2);',
      ]),
    );
  });

  it('awaits a whole optional call chain and a call whose callee is itself a blocking call', async () => {
    const { verdict, lines } = await verdictOf(`${HTTP}
function maker() { http.get('http://127.0.0.1/'); return () => 1; }
const c = { q() { return http.get('http://127.0.0.1/'); } };
export default function (data) { c?.q(); return maker()(); }
`);
    expect(verdict.kind).toBe('awaits');
    expect(lines).toEqual(expect.arrayContaining(['(await c?.q());', 'return (await maker())();']));
  });
});

describe('hostingVerdict: one thread per VU', () => {
  it('when a blocking function is handed to other code as a callback', async () => {
    expect(
      await refusal(
        `${HTTP}export default function () { ['a', 'b'].forEach((p) => http.get('http://127.0.0.1/' + p)); }`,
      ),
    ).toMatch(/a function that makes blocking calls is passed or kept as a value at bundle line \d+:\d+/);
  });

  it('when a blocking function or method is read as a value', async () => {
    expect(
      await refusal(
        `${HTTP}function get() { return http.get('http://127.0.0.1/'); }\nexport default function () { const f = get; f(); }`,
      ),
    ).toMatch(/get2?, which makes blocking calls, is used as a value/);
    expect(
      await refusal(
        `${HTTP}const c = { q() { return http.get('http://127.0.0.1/'); } };\nexport default function () { c.q(); const f = c.q; }`,
      ),
    ).toMatch(/method q, which makes blocking calls, is read as a value/);
    expect(
      await refusal(`${HTTP}export default function () { ['http://127.0.0.1/'].map(http.get); }`),
    ).toMatch(/get is used as a value/);
  });

  it('when a module with blocking functions is reached through require(), or a k6 function is replaced', async () => {
    expect(
      await refusal(
        "const http = require('k6/http');\nexport default function () { http.get('http://127.0.0.1/'); }",
      ),
    ).toMatch(/it reaches k6\/http through require\(\)/);
    expect(
      await refusal(
        "export default function () { const m = 'k6/http'; require(m).get('http://127.0.0.1/'); }",
      ),
    ).toMatch(/it calls require\(\) with a computed module name/);
    expect(
      await refusal(
        "import ws from 'k6/ws';\nexport default function () { ws.connect('ws://127.0.0.1/', () => {}); }",
      ),
    ).toMatch(/it uses k6\/ws, whose connect\(\) blocks its thread/);
    expect(
      await refusal(`${HTTP}export default function () { http.get('http://127.0.0.1/').submitForm(); }`),
    ).toMatch(/it calls res\.submitForm\(\), which sends a request from a response object/);
    expect(
      await refusal(
        `${HTTP}http.get = (u) => http.request('GET', u);\nexport default function () { http.get('http://127.0.0.1/'); }`,
      ),
    ).toMatch(/is used as a value|read as a value/);
  });

  it('hosts named imports of a k6 module whose members can be reassigned (k6/http)', async () => {
    const { verdict } = await verdictOf(
      "import { get, asyncRequest } from 'k6/http';\nexport default function () { get('http://127.0.0.1/'); }",
    );
    expect(verdict.kind).toBe('awaits');
  });

  it('when objects of the host realm could be told apart: instanceof a built-in, .constructor, a changed prototype', async () => {
    expect(
      await refusal(
        `${HTTP}export default function () { const r = http.get('http://127.0.0.1/'); if (r.json() instanceof Array) sleep(1); }`,
      ),
    ).toMatch(/it tests instanceof Array/);
    expect(
      await refusal(
        `${HTTP}export default function () { return http.get('http://127.0.0.1/').constructor; }`,
      ),
    ).toMatch(/it reads \.constructor/);
    expect(
      await refusal(
        `${HTTP}Array.prototype.last = function () { return this[this.length - 1]; };\nexport default function () { http.get('http://127.0.0.1/'); }`,
      ),
    ).toMatch(/it changes Array\.prototype/);
  });

  it('when the script uses a global a hosted VU does not have, eval or with', async () => {
    expect(
      await refusal(
        `${HTTP}export default function () { http.get('http://127.0.0.1/' + process.pid + Buffer.from('x')); }`,
      ),
    ).toBe('it uses globals a VU sharing a thread does not have: process, Buffer');
    expect(await refusal(`${HTTP}export default function () { eval('1'); }`)).toMatch(/it uses eval/);
  });

  it('when it makes blocking calls and has async code of its own, which awaits would interleave', async () => {
    expect(
      await refusal(
        `${HTTP}export default async function () { http.get('http://127.0.0.1/'); await http.asyncRequest('GET', 'http://127.0.0.1/'); }`,
      ),
    ).toMatch(
      /it makes blocking calls and also has async code of its own \(an async function at bundle line/,
    );
    expect(
      await refusal(
        `${HTTP}export default function () { setTimeout(() => {}, 1); http.get('http://127.0.0.1/'); }`,
      ),
    ).toMatch(/async code of its own \(timers at/);
  });

  it('when a blocking call sits where an await cannot go: init code, a default parameter, a getter, a class field', async () => {
    expect(
      await refusal(`${HTTP}const r = http.get('http://127.0.0.1/');\nexport default function () {}`),
    ).toMatch(/its init code makes a blocking call/);
    expect(
      await refusal(
        `${HTTP}function f(r = http.get('http://127.0.0.1/')) { return r; }\nexport default function () { f(); }`,
      ),
    ).toMatch(/a blocking call in a default parameter value/);
    expect(
      await refusal(
        `${HTTP}const o = { get r() { return http.get('http://127.0.0.1/'); } };\nexport default function () { return o.r; }`,
      ),
    ).toMatch(/a getter makes blocking calls/);
    expect(
      await refusal(
        `${HTTP}class C { r = http.get('http://127.0.0.1/'); }\nexport default function () { return new C(); }`,
      ),
    ).toMatch(/a blocking call in a class field initialiser/);
  });
});
