// k6's web-dashboard convention through the real CLI: one short run of a two-scenario script against a loopback
// server with K6_WEB_DASHBOARD=true (the live page answered on loopback while the test runs, then gone) and
// K6_WEB_DASHBOARD_EXPORT (the self-contained report: exact tables and chart totals); refused variables fail
// before any request. tests/report/browser.test.ts opens such an export in Chromium.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bench, ROOT, scratch, type startServer } from '../runner/harness';
import { dashboardRun, exportedCharts, fixtureServer } from './dashboard-run';

let server: Awaited<ReturnType<typeof startServer>>;
const tmp = scratch();
beforeAll(async () => {
  server = await fixtureServer();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
        // The event stream stays open: its first event is all a test needs.
        if (res.headers['content-type'] === 'text/event-stream' && body.includes('\n\n')) req.destroy();
      });
      const done = () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body });
      res.on('end', done);
      res.on('close', done);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('K6_WEB_DASHBOARD and K6_WEB_DASHBOARD_EXPORT', () => {
  it('serves the live page on loopback during the run and writes the report at its end', async () => {
    const file = join(tmp.dir, 'report.html');
    const seen: {
      page?: Awaited<ReturnType<typeof get>>;
      events?: Awaited<ReturnType<typeof get>>;
      foreign?: number;
    } = {};
    const run = await dashboardRun(server.url, file, async (url) => {
      seen.page = await get(`${url}/`);
      seen.events = await get(`${url}/events`);
      seen.foreign = (await get(`${url}/`, { host: 'attacker.example' })).status;
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(run.stdout).toContain(` web dashboard: ${run.url}\n        output: -`);

    // While it ran: the page (which follows /events), one update with the charts so far, loopback names only.
    expect(seen.page?.status).toBe(200);
    expect(seen.page?.body).toContain('<body data-events="/events">');
    expect(seen.events?.type).toBe('text/event-stream');
    const update = JSON.parse(/^event: update\ndata: (.*)$/m.exec(seen.events?.body ?? '')?.[1] ?? 'null');
    expect(update.status).toMatch(/^running: \d+\.\d s, \d+ requests$/);
    expect(seen.foreign).toBe(421);
    // After it: nothing listens there.
    await expect(get(`${run.url}/`)).rejects.toThrow(/ECONNREFUSED/);

    // The report: self-contained, the run's exact counts.
    const html = readFileSync(file, 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    expect(html).toMatch(/<div id="status">finished: \d+\.\d s, 24 requests<\/div>/);
    expect(html).toContain(
      '<tbody><tr><td>ok</td><td>16</td><td>0</td><td>0.00 %</td><td>16</td><td>16 / 16</td></tr><tr><td>failing</td><td>8</td><td>8</td><td>100.00 %</td><td>8</td><td>0 / 8</td></tr><tr><td>(all)</td><td>24</td><td>8</td><td>33.33 %</td><td>24</td><td>16 / 24</td></tr></tbody>',
    );
    expect(html).toContain(
      '<tr><td>ok</td><td>status is 200</td><td>16</td><td>0</td></tr><tr><td>failing</td><td>status is 200</td><td>0</td><td>8</td></tr>',
    );
    expect(html).toContain(
      '<tr><td>server_ms</td><td>trend</td><td>avg=6.5ms  min=5ms  med=6.5ms  max=8ms  p(90)=8ms  p(95)=8ms  p(99)=8ms</td></tr>',
    );
    expect(html).toContain('<tr><td>http_req_failed</td><td>rate</td><td>33.33%  8 out of 24</td></tr>');

    // The charts: per-second rates over 1 s periods add up to the counts; every 503 in the errors chart.
    const charts = exportedCharts(html);
    expect(charts.map((c) => c.id)).toEqual([
      'requests',
      'http_req_duration',
      'vus',
      'checks',
      'errors',
      'trend-server_ms',
    ]);
    const sum = (id: string, name: string) =>
      charts
        .find((c) => c.id === id)
        ?.series.find((s) => s.name === name)
        ?.data.reduce((a, [, y]) => a + (y ?? 0), 0);
    expect(sum('requests', 'http_reqs')).toBe(24);
    expect(sum('requests', 'http_reqs ok')).toBe(16);
    expect(sum('requests', 'http_reqs failing')).toBe(8);
    expect(sum('requests', 'iterations')).toBe(24);
    expect(sum('errors', 'status 503')).toBe(8);
    const p50 =
      charts.find((c) => c.id === 'trend-server_ms')?.series.find((s) => s.name === 'p50')?.data ?? [];
    // A period without an iteration of `ok` (the last one, or a stall under load) has no value: a gap.
    const values = p50.map(([, y]) => y).filter((y) => y !== null);
    expect(values.length).toBeGreaterThanOrEqual(3);
    expect(
      values.every((y) => y >= 5 && y <= 8),
      JSON.stringify(p50),
    ).toBe(true);
  });

  it.each([
    [
      [],
      { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_HOST: '0.0.0.0' },
      'K6_WEB_DASHBOARD_HOST=0.0.0.0: bench serves the web dashboard on loopback only',
    ],
    [
      [],
      { K6_WEB_DASHBOARD_EXPORT: '/nonexistent-dir/r.html' },
      'K6_WEB_DASHBOARD_EXPORT: cannot write "/nonexistent-dir/r.html"',
    ],
    [
      ['--out', 'web-dashboard=export=/nonexistent-dir/r.html'],
      {},
      '--out web-dashboard export: cannot write "/nonexistent-dir/r.html"',
    ],
    [
      ['--out', 'web-dashboard=host=10.0.0.1&export=r.html'],
      {},
      '--out web-dashboard host=10.0.0.1: bench serves the web dashboard on loopback only',
    ],
  ])('%j %j: exit 255 before any request, naming the problem', async (flags, env, message) => {
    const before = server.requests.length;
    const r = await bench(
      [
        'run',
        '-q',
        ...flags,
        '-e',
        `BASE=${server.url}`,
        join(ROOT, 'tests/report/fixtures/web-dashboard.js'),
      ],
      env,
    );
    expect(r.code).toBe(255);
    expect(r.stderr).toContain(message);
    expect(server.requests.length).toBe(before);
  });

  it('refuses a port in use before any request', async () => {
    const busy = new URL(server.url).port;
    const before = server.requests.length;
    const r = await bench(
      ['run', '-q', '-e', `BASE=${server.url}`, join(ROOT, 'tests/report/fixtures/web-dashboard.js')],
      {
        K6_WEB_DASHBOARD: 'true',
        K6_WEB_DASHBOARD_PORT: busy,
      },
    );
    expect(r.code).toBe(255);
    expect(r.stderr).toContain(`web dashboard: 127.0.0.1:${busy} is in use`);
    expect(server.requests.length).toBe(before);
  });
});
