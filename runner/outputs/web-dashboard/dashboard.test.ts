import { describe, expect, it } from 'vitest';
import { MetricRegistry } from '../../metrics/registry';
import { dashboardCharts } from './charts';
import { dashboardConfig } from './config';
import { dashboardTables } from './page';
import { DashboardRecorder, seriesKey } from './recorder';

const registry = new MetricRegistry();
const reqs = registry.resolve('http_reqs');
const failed = registry.resolve('http_req_failed');
const duration = registry.resolve('http_req_duration');
const vus = registry.resolve('vus');
const custom = registry.define('server_ms', 'trend', 'time');
const ignored = registry.resolve('http_req_waiting');

const T0 = 1_700_000_000_000;

/** Three 1 s periods of scenario a (2 requests each, the last failed with 503) and b (1 request, period 1). */
function recorded(): DashboardRecorder {
  const r = new DashboardRecorder(1000);
  for (let p = 0; p < 3; p++) {
    const t = T0 + p * 1000;
    r.write(vus, t, 2, { tags: {} });
    for (const [i, ms] of [10 * (p + 1), 20 * (p + 1)].entries()) {
      const bad = p === 2 && i === 1;
      const tags = { scenario: 'a', status: bad ? '503' : '200' };
      r.write(reqs, t + 100 + i, 1, { tags });
      r.write(duration, t + 100 + i, ms, { tags });
      r.write(failed, t + 100 + i, bad ? 1 : 0, { tags });
      r.write(ignored, t + 100 + i, 1, { tags });
    }
    r.write(custom, t + 500, 5 + p, { tags: { scenario: 'a' } });
  }
  r.write(reqs, T0 + 1200, 1, { tags: { scenario: 'b', status: '200' } });
  return r;
}

describe('web dashboard data', () => {
  it('aggregates per period and scenario, keeping only the charted built-ins and custom trends', () => {
    const d = recorded().data();
    expect(d.periods).toHaveLength(3);
    expect(d.scenarios).toEqual(['a', 'b']);
    expect(d.trends).toEqual([{ name: 'server_ms', time: true }]);
    expect(d.periods[1].get(seriesKey('http_reqs', ''))).toEqual({ type: 'counter', sum: 3 });
    expect(d.periods[1].get(seriesKey('http_reqs', 'b'))).toEqual({ type: 'counter', sum: 1 });
    expect(d.periods[2].get(seriesKey('http_req_failed', 'a'))).toEqual({
      type: 'rate',
      trues: 1,
      samples: 2,
    });
    expect(d.periods[0].get(seriesKey('http_req_duration', ''))).toMatchObject({
      count: 2,
      p50: 15,
      max: 20,
    });
    expect(d.periods[0].has(seriesKey('http_req_waiting', ''))).toBe(false);
    expect(d.failedByStatus.map((m) => Object.fromEntries(m))).toEqual([{}, {}, { '503': 1 }]);
  });

  it('settles periods two behind the newest sample; a later sample counts in the oldest open period', () => {
    const r = recorded();
    r.write(reqs, T0 + 5000, 1, { tags: {} }); // opens periods 3-5 and settles 0-3
    r.write(reqs, T0 + 100, 1, { tags: {} }); // period 0 is settled: counted in 4
    const d = r.data();
    expect(
      d.periods.map(
        (p) => p.get(seriesKey('http_reqs', ''))?.type === 'counter' && p.get(seriesKey('http_reqs', '')),
      ),
    ).toEqual([
      { type: 'counter', sum: 2 },
      { type: 'counter', sum: 3 },
      { type: 'counter', sum: 2 },
      false,
      { type: 'counter', sum: 1 },
      { type: 'counter', sum: 1 },
    ]);
  });

  it('keeps every period open for a replay, whose streams arrive one after another', () => {
    const r = new DashboardRecorder(1000, false);
    for (const t of [T0 + 5000, T0 + 5100, T0, T0 + 2500, T0 - 1000]) r.write(reqs, t, 1, { tags: {} });
    const sums = r.data().periods.map((p) => {
      const f = p.get(seriesKey('http_reqs', ''));
      return f?.type === 'counter' ? f.sum : 0;
    });
    expect(sums).toEqual([1, 1, 0, 1, 0, 0, 2]); // from T0 - 1000 to T0 + 5100, periods aligned to the first sample
  });

  it('charts exact series: rates per second, percentiles, failures by status, custom trends', () => {
    const { charts, notes } = dashboardCharts(recorded().data());
    expect(notes).toEqual([]);
    expect(charts.map((c) => c.id)).toEqual([
      'requests',
      'http_req_duration',
      'vus',
      'errors',
      'trend-server_ms',
    ]);
    const series = (id: string, name: string) =>
      charts.find((c) => c.id === id)?.series.find((s) => s.name === name)?.points;
    expect(series('requests', 'http_reqs')).toEqual([
      [0, 2],
      [1, 3],
      [2, 2],
    ]);
    expect(series('requests', 'http_reqs b')).toEqual([
      [0, 0],
      [1, 1],
      [2, 0],
    ]);
    expect(series('http_req_duration', 'p99')).toEqual([
      [0, 19.9],
      [1, 39.8],
      [2, 59.7],
    ]);
    expect(series('errors', 'failed a')).toEqual([
      [0, 0],
      [1, 0],
      [2, 50],
    ]);
    expect(series('errors', 'status 503')).toEqual([
      [0, null],
      [1, null],
      [2, 1],
    ]);
    expect(series('trend-server_ms', 'p50')).toEqual([
      [0, 5],
      [1, 6],
      [2, 7],
    ]);
    // No checks in the test: no checks chart; no iterations or drops: no such series.
    expect(series('requests', 'iterations')).toBeUndefined();
  });

  it('draws no chart for fewer than three periods, and says why', () => {
    const r = new DashboardRecorder(10_000);
    r.write(reqs, T0, 1, { tags: {} });
    expect(dashboardCharts(r.data())).toEqual({
      charts: [],
      notes: [
        'The test ran 1 period(s) of 10 s; the charts need at least 3 (as in k6): set a shorter K6_WEB_DASHBOARD_PERIOD.',
      ],
    });
  });

  it('tabulates scenarios with their whole-test counts', () => {
    const html = dashboardTables({
      script: 's.js',
      data: recorded().data(),
      metrics: [],
      status: 'running',
      elapsedS: 3,
    });
    expect(html).toContain(
      '<tr><td>a</td><td>6</td><td>1</td><td>16.67 %</td><td>0</td><td>—</td></tr><tr><td>b</td><td>1</td><td>0</td><td>—</td><td>0</td><td>—</td></tr><tr><td>(all)</td><td>7</td><td>1</td><td>16.67 %</td><td>0</td><td>—</td></tr>',
    );
  });
});

describe('web dashboard variables', () => {
  it('is off unless K6_WEB_DASHBOARD=true or an export is named; defaults as k6', () => {
    expect(dashboardConfig({})).toBeUndefined();
    expect(dashboardConfig({ K6_WEB_DASHBOARD: 'false' })).toBeUndefined();
    expect(
      dashboardConfig({
        K6_NO_WEB_DASHBOARD: 'true',
        K6_WEB_DASHBOARD: 'true',
        K6_WEB_DASHBOARD_EXPORT: 'r.html',
      }),
    ).toBeUndefined();
    expect(dashboardConfig({ K6_WEB_DASHBOARD: 'true' })).toEqual({
      serve: true,
      host: '127.0.0.1',
      port: 5665,
      periodMs: 10_000,
      exportPath: undefined,
      exportSource: undefined,
      openRequested: false,
    });
    expect(dashboardConfig({ K6_WEB_DASHBOARD_EXPORT: 'r.html' })).toMatchObject({
      serve: false,
      exportPath: 'r.html',
      exportSource: 'K6_WEB_DASHBOARD_EXPORT',
    });
    expect(dashboardConfig({ K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_PORT: '-1' })).toMatchObject({
      serve: false,
    });
    expect(
      dashboardConfig({
        K6_WEB_DASHBOARD: 'true',
        K6_WEB_DASHBOARD_HOST: '::1',
        K6_WEB_DASHBOARD_PERIOD: '2s',
      }),
    ).toMatchObject({ host: '::1', periodMs: 2000 });
  });

  it("takes --out web-dashboard's query-string parameters over the variables", () => {
    expect(dashboardConfig({ K6_WEB_DASHBOARD_PORT: '7000' }, [''])).toMatchObject({
      serve: true,
      port: 7000,
    });
    expect(
      dashboardConfig({ K6_WEB_DASHBOARD_PORT: '7000' }, ['port=0&period=2s&open&export=out/r.html']),
    ).toEqual({
      serve: true,
      host: '127.0.0.1',
      port: 0,
      periodMs: 2000,
      exportPath: 'out/r.html',
      exportSource: '--out web-dashboard export',
      openRequested: true,
    });
    expect(() => dashboardConfig({}, ['prot=1'])).toThrow(
      "--out web-dashboard: unknown parameter 'prot': use host, port, period, open, export",
    );
  });

  it.each([
    ['host=0.0.0.0', '--out web-dashboard host=0.0.0.0: bench serves the web dashboard on loopback only'],
    ['port=70000', '--out web-dashboard port=70000 is not a port'],
    ['period=10ms', '--out web-dashboard period=10ms is too short'],
    ['open=maybe', '--out web-dashboard open=maybe is not a boolean'],
  ])('names the --out parameter a bad value came from (%s), not a variable nobody set', (arg, message) => {
    expect(() => dashboardConfig({}, [arg])).toThrow(message);
  });

  it.each([
    [{ K6_WEB_DASHBOARD: 'yes please' }, 'K6_WEB_DASHBOARD=yes please is not a boolean: use true or false'],
    [
      { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_HOST: '0.0.0.0' },
      'K6_WEB_DASHBOARD_HOST=0.0.0.0: bench serves the web dashboard on loopback only',
    ],
    [
      { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_HOST: '10.1.2.3' },
      'loopback only (localhost, 127.0.0.1 or ::1)',
    ],
    [
      { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_PORT: '70000' },
      'K6_WEB_DASHBOARD_PORT=70000 is not a port',
    ],
    [
      { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_PERIOD: 'often' },
      'K6_WEB_DASHBOARD_PERIOD: invalid duration "often"',
    ],
    [
      { K6_WEB_DASHBOARD_EXPORT: 'r.html', K6_WEB_DASHBOARD_PERIOD: '10ms' },
      'K6_WEB_DASHBOARD_PERIOD=10ms is too short',
    ],
  ])('refuses %j', (env, message) => {
    expect(() => dashboardConfig(env)).toThrow(message);
  });
});
