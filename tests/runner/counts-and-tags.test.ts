// Fixture scripts against a loopback server: exact iteration and request counts, tags in the NDJSON output,
// handleSummary data, and the executors' end-of-scenario behaviour.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCH_VERSION } from '../../runner/version';
import { bench, fileFixtures, fixture, points, readNdjson } from './harness';

const files = fileFixtures();
const tmp = files.tmp;

describe('shared-iterations with setup, groups, checks and handleSummary', () => {
  it('runs exactly 10 iterations and hands k6-shaped data to handleSummary', async () => {
    const summaryFile = join(tmp.dir, 'summary.json');
    const before = files.server.requests.length;
    const r = await bench([
      'run',
      '-q',
      '-e',
      `TARGET=${files.server.url}`,
      '-e',
      `SUMMARY_FILE=${summaryFile}`,
      fixture('shared-iterations-summary-data.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('custom summary\n');
    const got = files.server.requests.slice(before);
    expect(got.filter((q) => q.url === '/setup').length).toBe(1);
    expect(got.filter((q) => q.url === '/').length).toBe(10);
    // The default User-Agent names bench, not Grafana k6 (the fixture sets none).
    expect(got[0].headers['user-agent']).toBe(`bench/${BENCH_VERSION} (k6-compatible; targets k6 v2.2.0)`);
    const data = JSON.parse(readFileSync(summaryFile, 'utf8'));
    expect(data.metrics.iterations.values.count).toBe(10);
    expect(data.metrics.fixture_hits).toMatchObject({
      type: 'counter',
      contains: 'default',
      values: { count: 10 },
    });
    expect(data.metrics.fixture_hits.thresholds).toEqual({ 'count==10': { ok: true } });
    expect(data.metrics['http_req_duration{name:root}'].thresholds).toEqual({ 'p(95)<5000': { ok: true } });
    expect(data.metrics.http_reqs.values.count).toBe(11);
    expect(data.metrics.checks.values).toMatchObject({ passes: 21, fails: 10 });
    expect(Object.keys(data.metrics.http_req_duration.values)).toEqual([
      'avg',
      'min',
      'med',
      'max',
      'p(90)',
      'p(95)',
    ]);
    expect(data.setup_data).toEqual({ token: 'abc', n: 1 });
    expect(data.options).toEqual({
      summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'],
      summaryTimeUnit: '',
      noColor: true,
    });
    const root = data.root_group;
    expect(root).toMatchObject({ name: '', path: '', id: 'd41d8cd98f00b204e9800998ecf8427e' });
    expect(root.checks).toEqual([
      { name: 'always fails', path: '::always fails', id: expect.any(String), passes: 0, fails: 10 },
    ]);
    expect(root.groups.map((g: { name: string }) => g.name)).toEqual(['setup', 'outer']);
    expect(root.groups[0].checks[0]).toMatchObject({
      name: 'setup got 200',
      path: '::setup::setup got 200',
      passes: 1,
      fails: 0,
    });
    const inner = root.groups[1].groups[0];
    expect(inner).toMatchObject({ name: 'inner', path: '::outer::inner' });
    expect(inner.checks.map((c: { name: string; passes: number }) => [c.name, c.passes])).toEqual([
      ['status is 200', 10],
      ['token seen', 10],
    ]);
  });
});

describe('constant-arrival-rate', () => {
  it('starts rate x duration iterations and tags every sample', async () => {
    const out = join(tmp.dir, 'car.ndjson');
    const r = await bench([
      'run',
      '-q',
      '-e',
      `TARGET=${files.server.url}`,
      '--out',
      `json=${out}`,
      fixture('constant-arrival-rate-tags.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = readNdjson(out);
    const durations = points(lines, 'http_req_duration');
    const dropped = points(lines, 'dropped_iterations').length;
    expect(durations.length + dropped).toBe(20);
    expect(points(lines, 'iterations').length).toBe(durations.length);
    expect(durations[0].data.tags).toEqual({
      consistency: 'strong',
      expected_response: 'true',
      group: '',
      method: 'GET',
      name: `${files.server.url}/q`,
      phase: 'idle',
      proto: 'HTTP/1.1',
      run: 'fixture',
      scenario: 'queries',
      status: '200',
      url: `${files.server.url}/q`,
    });
    const lag = points(lines, 'bench_iteration_start_lag');
    expect(lag.length).toBe(durations.length);
    expect(lag[0].data.tags).toEqual({ group: '', phase: 'idle', run: 'fixture', scenario: 'queries' });
    const metricLine = lines.find((l) => l.type === 'Metric' && l.metric === 'http_req_duration');
    expect(metricLine?.data).toMatchObject({
      name: 'http_req_duration',
      type: 'trend',
      contains: 'time',
      thresholds: [],
    });
    expect(points(lines, 'vus_max')[0].data.tags).toEqual({ run: 'fixture' });
    // The runner's own event-loop lag: one sample per second for this thread and one for the VU host thread. The VUs
    // share that thread and there is no setup(), so the HTTP I/O worker never starts and has no samples.
    const loopLag = points(lines, 'bench_event_loop_lag');
    const threads = loopLag.map((p) => p.data.tags?.thread);
    expect(threads.filter((t) => t === 'main').length).toBe(threads.filter((t) => t === 'vu-host').length);
    expect(threads.filter((t) => t === 'http')).toEqual([]);
    expect(threads.filter((t) => t === 'main').length).toBeGreaterThanOrEqual(2);
    expect(loopLag.every((p) => p.data.tags?.run === 'fixture' && (p.data.value ?? -1) >= 0)).toBe(true);
    expect(durations[0].data.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/);
  });

  it('drops starts that find no idle VU, one sample each', async () => {
    const out = join(tmp.dir, 'dropped.ndjson');
    const r = await bench(['run', '-q', '--out', `json=${out}`, fixture('dropped-iterations-no-free-vu.js')]);
    expect(r.code, r.stderr).toBe(0);
    const lines = readNdjson(out);
    const dropped = points(lines, 'dropped_iterations');
    const done = points(lines, 'iterations').length;
    expect(done + dropped.length).toBe(10);
    expect(done).toBeGreaterThanOrEqual(2);
    expect(done).toBeLessThanOrEqual(4);
    expect(dropped.every((d) => d.data.value === 1 && d.data.tags?.scenario === 'q')).toBe(true);
    expect(r.stderr).toMatch(/Insufficient VUs, reached 1 active VUs and cannot initialize more/);
  });

  it('adds VUs up to maxVUs when starts are dropped, then warns once', async () => {
    const out = join(tmp.dir, 'grow.ndjson');
    const r = await bench(['run', '-q', '--out', `json=${out}`, fixture('arrival-rate-adds-vus.js')]);
    expect(r.code, r.stderr).toBe(0);
    const lines = readNdjson(out);
    const vus = points(lines, 'vus').map((p) => p.data.value ?? 0);
    const dropped = points(lines, 'dropped_iterations').length;
    const done = points(lines, 'iterations').length;
    expect(done + dropped).toBe(20);
    expect(Math.max(...vus)).toBe(3);
    expect(Math.max(...points(lines, 'vus_max').map((p) => p.data.value ?? 0))).toBe(3);
    // One VU alone could run 5 of the 20 starts in 2 s; the two it was given run the rest they could take.
    expect(done).toBeGreaterThan(6);
    const warnings = r.stderr.match(/Insufficient VUs, reached 3 active VUs and cannot initialize more/g);
    expect(warnings).toHaveLength(1);
  });
});

describe('per-vu-iterations, exec and scenario env', () => {
  it('runs vus x iterations of the exec function with unique iteration ids', async () => {
    const out = join(tmp.dir, 'pvi.ndjson');
    const r = await bench(['run', '-q', '--out', `json=${out}`, fixture('per-vu-iterations-exec-env.js')]);
    expect(r.code, r.stderr).toBe(0);
    const seen = points(readNdjson(out), 'fixture_seen');
    expect(seen.length).toBe(6);
    expect(new Set(seen.map((s) => s.data.tags?.it)).size).toBe(6);
    expect(new Set(seen.map((s) => s.data.tags?.vu))).toEqual(new Set(['1', '2', '3']));
    expect(
      seen.every(
        (s) =>
          s.data.tags?.role === 'w' && s.data.tags?.kind === 'write' && s.data.tags?.scenario === 'writers',
      ),
    ).toBe(true);
  });
});

describe('iteration end and interruption', () => {
  it('waits for async work and timers before ending an iteration', async () => {
    const out = join(tmp.dir, 'async.ndjson');
    const r = await bench(['run', '-q', '--out', `json=${out}`, fixture('async-iteration-timers.js')]);
    expect(r.code, r.stderr).toBe(0);
    const lines = readNdjson(out);
    const waited = points(lines, 'fixture_waited');
    expect(waited.length).toBe(3);
    expect(waited.every((w) => (w.data.value ?? 0) >= 95)).toBe(true);
    expect(points(lines, 'iteration_duration').every((d) => (d.data.value ?? 0) >= 95)).toBe(true);
  });

  it('interrupts iterations at the hard end: no iteration samples, data samples still sent', async () => {
    const out = join(tmp.dir, 'graceful.ndjson');
    const r = await bench(['run', '-q', '--out', `json=${out}`, fixture('graceful-stop-interrupts.js')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.ms).toBeLessThan(9000);
    const lines = readNdjson(out);
    expect(points(lines, 'iterations').length).toBe(0);
    expect(points(lines, 'data_sent').length).toBe(2);
    expect(r.stderr).toMatch(/No script iterations fully finished/);
  });
});

describe('tags', () => {
  it('adds exec.vu.metrics.tags and nested group paths, and drops disabled system tags', async () => {
    const out = join(tmp.dir, 'tags.ndjson');
    const r = await bench([
      'run',
      '-q',
      '--out',
      `json=${out}`,
      fixture('vu-metric-tags-and-system-tags.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const tagged = points(readNdjson(out), 'fixture_tagged');
    expect(tagged.map((p) => [p.data.value, p.data.tags])).toEqual([
      [1, { extra: 'true', group: '::outer::inner', run: 'r1', shard: '7' }],
      [2, { group: '', run: 'r1' }],
    ]);
  });
});

describe('modules and globals', () => {
  it('open() and SharedArray read files relative to the script', async () => {
    const summary = join(tmp.dir, 'export.json');
    const r = await bench(['run', '-q', '--summary-export', summary, fixture('open-and-shared-array.js')]);
    expect(r.code, r.stderr).toBe(0);
    const exported = JSON.parse(readFileSync(summary, 'utf8'));
    expect(exported.metrics.checks).toEqual({ passes: 4, fails: 0, value: 1 });
  });

  it('serves the jslib k6-summary import with a built-in textSummary', async () => {
    const r = await bench(['run', '-q', fixture('jslib-text-summary.js')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^JSLIB\n {5}✓ one is one\n/);
    expect(r.stdout).toMatch(/ {5}checks\.+: 100\.00% +✓ 2 +✗ 0/);
    expect(r.stdout).toMatch(/ {5}iterations\.+: 2 /);
  });
});
