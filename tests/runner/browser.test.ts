// k6/browser on Debian's Chromium (make chromium) against a loopback site this test starts: a login form, its
// navigation, and browser_* metrics with k6's tags in the --out json stream; and k6's refusal in a scenario that
// names no browser type.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../core/chromium';
import { bench, fixture, readNdjson, scratch } from './harness';

let server: Server;
let base = '';
const work = scratch();

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.writeHead(200, { 'content-type': 'text/html' });
    if (url.pathname === '/done') {
      res.end(`<title>Welcome</title><h2>Welcome, ${url.searchParams.get('login')}!</h2>`);
      return;
    }
    res.end(
      '<title>Login</title><form action="/done"><input name="login"><button type="submit">Go</button></form>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  work.cleanup();
});

describe('k6/browser', () => {
  it('drives a page through a form and emits browser_* metrics', async () => {
    const out = join(work.dir, 'browser.json');
    const r = await bench(
      ['run', '-q', '-e', `TARGET=${base}`, '--out', `json=${out}`, fixture('browser-page.js')],
      {},
      90_000,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 2 out of 2/);
    const points = readNdjson(out).filter((l) => l.type === 'Point');
    const requests = points.filter((p) => p.metric === 'browser_http_req_duration');
    expect(requests.map((p) => p.data.tags?.url)).toEqual(
      expect.arrayContaining([`${base}/`, `${base}/done?login=admin`]),
    );
    expect(requests[0].data.tags).toMatchObject({
      method: 'GET',
      status: '200',
      resource_type: 'Document',
      scenario: 'ui',
    });
    expect(points.some((p) => p.metric === 'browser_http_req_failed' && p.data.value === 0)).toBe(true);
    expect(points.some((p) => p.metric === 'browser_web_vital_fcp' && (p.data.value ?? 0) > 0)).toBe(true);
  });

  it("throws k6's error in iterations of a scenario without options.browser.type, and starts no browser", async () => {
    // --vus/--iterations replace the script's scenarios with one that has no browser options, as in k6.
    const out = join(work.dir, 'no-browser.json');
    const r = await bench(
      [
        'run',
        '-q',
        '--vus',
        '1',
        '--iterations',
        '1',
        '-e',
        `TARGET=${base}`,
        '--out',
        `json=${out}`,
        fixture('browser-page.js'),
      ],
      {},
      60_000,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'browser not found in registry. make sure to set browser type option in scenario definition in order to use the browser module',
    );
    const metrics = readNdjson(out)
      .filter((l) => l.type === 'Point')
      .map((p) => p.metric);
    expect(metrics.filter((m) => m.startsWith('browser_'))).toEqual([]);
    expect(metrics.filter((m) => m === 'iterations')).toHaveLength(1);
  });

  it("takes k6's shapes where Playwright's differ: setInputFiles payloads, cookies(url, url)", async () => {
    const r = await bench(['run', '-q', fixture('browser-k6-api.js')], {}, 90_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout, r.stderr).toMatch(/checks_succeeded\.*: 100\.00% 2 out of 2/);
  });

  it('connectOverCDP() drives a running Chromium and closes the connection at the iteration end, not the browser', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'bench-cdp-'));
    const chromium = spawn(
      CHROMIUM,
      [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
      // Its own process group, so the renderer and helper processes go with it at the end.
      { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    );
    const exited = new Promise((resolve) => chromium.once('exit', resolve));
    try {
      const endpoint = await new Promise<string>((resolve, reject) => {
        let seen = '';
        const timer = setTimeout(
          () => reject(new Error(`no DevTools endpoint from Chromium: ${seen}`)),
          20_000,
        );
        chromium.stderr.on('data', (chunk: Buffer) => {
          seen += chunk;
          const found = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
          if (found) {
            clearTimeout(timer);
            resolve(found[1]);
          }
        });
      });
      const r = await bench(
        ['run', '-q', '--iterations', '2', '-e', `CDP_WS_URL=${endpoint}`, fixture('browser-cdp.js')],
        {},
        60_000,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, r.stderr).toMatch(/checks_succeeded\.*: 100\.00% 4 out of 4/);
      expect(chromium.exitCode).toBeNull();

      const refused = await bench(
        ['run', '-q', '-e', 'CDP_WS_URL=http://127.0.0.1:1', fixture('browser-cdp.js')],
        {},
        60_000,
      );
      expect(refused.code).toBe(0);
      expect(refused.stderr).toContain(
        'connectOverCDP: the endpoint must be the browser\'s CDP WebSocket URL (ws:// or wss://), got \\"http://127.0.0.1:1\\"',
      );
    } finally {
      if (chromium.pid !== undefined) process.kill(-chromium.pid, 'SIGKILL');
      await exited;
      // A helper process can still be writing into the profile for a moment after the kill.
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });
});
