// The CLI surface besides `run` semantics: version, inspect, outputs (CSV, gzip JSON), -e and env layers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BENCH_VERSION } from '../../runner/version';
import { bench, fixture, scratch } from './harness';

const tmp = scratch();
afterAll(() => tmp.cleanup());

describe('bench version', () => {
  it('prints one line naming the runner and the k6 version it targets', async () => {
    const r = await bench(['version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^bench v\d+\.\d+\.\d+ \(k6-compatible runner, targets k6 v2\.2\.0; node\d+/);
  });

  it("opens a run with its own header line (not k6's logo), then k6's execution, script and output lines", async () => {
    const script = fixture('env-and-outputs.js');
    const r = await bench(['run', '--summary-mode', 'disabled', '-e', 'STEP=1', script]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').slice(0, 6)).toEqual([
      '',
      `  bench v${BENCH_VERSION} (k6-compatible runner, targets k6 v2.2.0)`,
      '',
      '     execution: local',
      `        script: ${script}`,
      '        output: -',
    ]);
  });

  it('prints JSON with --json', async () => {
    const r = await bench(['version', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({
      version: expect.stringMatching(/^v/),
      k6_version: 'v2.2.0',
    });
  });
});

describe('bench inspect', () => {
  it('prints every option key with null when unset, after the env and flag layers', async () => {
    const r = await bench(['inspect', '--vus', '2', fixture('env-and-outputs.js')], {
      K6_SETUP_TIMEOUT: '5s',
    });
    expect(r.code, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({
      vus: 2,
      iterations: 2,
      tags: { team: 'bench' },
      setupTimeout: '5s',
      paused: null,
      scenarios: null,
    });
  });

  it('adds the derived scenarios, totalDuration and maxVUs with --execution-requirements', async () => {
    const r = await bench(['inspect', '--execution-requirements', fixture('env-and-outputs.js')]);
    expect(r.code, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o.scenarios).toEqual({
      default: { executor: 'shared-iterations', vus: 1, iterations: 2, maxDuration: '10m' },
    });
    expect(o.totalDuration).toBe('10m30s');
    expect(o.maxVUs).toBe(1);
    expect(o.iterations).toBeNull();
  });
});

describe('outputs and env', () => {
  it('writes k6 CSV rows and gzip NDJSON, with -e values and run tags', async () => {
    const csv = join(tmp.dir, 'out.csv');
    const gz = join(tmp.dir, 'out.json.gz');
    const r = await bench([
      'run',
      '-q',
      '-e',
      'STEP=5',
      '-e',
      'FROM=cli',
      '-o',
      `csv=${csv}`,
      '-o',
      `json=${gz}`,
      fixture('env-and-outputs.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/teardown sees cli/);
    const rows = readFileSync(csv, 'utf8').trim().split('\n');
    expect(rows[0]).toBe(
      'metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata',
    );
    const envRows = rows.filter((l) => l.startsWith('fixture_env,'));
    expect(envRows.length).toBe(2);
    expect(envRows[0]).toMatch(/^fixture_env,\d{10},5\.000000,,,,,,,,,default,,,,,,from=cli&team=bench,$/);
    const lines = gunzipSync(readFileSync(gz))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const pts = lines.filter((l) => l.type === 'Point' && l.metric === 'fixture_env');
    expect(pts.map((p) => p.data.value)).toEqual([5, 5]);
    expect(pts[0].data.tags).toEqual({ from: 'cli', group: '', scenario: 'default', team: 'bench' });
  });

  it('takes options from a --config file and K6_* variables, and outputs from K6_OUT', async () => {
    const out = join(tmp.dir, 'layers.ndjson');
    const r = await bench(
      ['run', '-q', '--config', fixture('config-file-layer.json'), fixture('options-from-config-and-env.js')],
      { K6_ITERATIONS: '3', K6_OUT: `json=${out}` },
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const pts = lines.filter((l) => l.type === 'Point' && l.metric === 'fixture_layers');
    expect(pts.length).toBe(3);
    expect(pts[0].data.tags.from).toBe('config');
  });

  it('falls back to the text summary when handleSummary throws', async () => {
    const r = await bench(['run', '-q', fixture('handle-summary-throws-falls-back.js')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/summary broke/);
    expect(r.stdout).toMatch(/TOTAL RESULTS/);
  });

  it('teardown longer than teardownTimeout exits 101', async () => {
    const r = await bench(['run', '-q', fixture('teardown-timeout-exit-101.js')]);
    expect(r.code, r.stderr).toBe(101);
    expect(r.stderr).toMatch(/teardown\(\) execution timed out after 1 seconds/);
  });
});
