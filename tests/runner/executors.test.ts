// Ramping executors, startTime offsets and signals, run through the CLI with exact counts from NDJSON output.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bench, fixture, points, readNdjson, scratch } from './harness';

const tmp = scratch();
afterAll(() => tmp.cleanup());

describe('ramping executors', () => {
  it('ramping-vus runs iterations only on the VUs its stages activate', async () => {
    const out = join(tmp.dir, 'rvus.ndjson');
    const r = await bench(['run', '-q', '--out', `json=${out}`, fixture('ramping-vus-stages.js')]);
    expect(r.code, r.stderr).toBe(0);
    const byVu = points(readNdjson(out), 'fixture_by_vu');
    expect(new Set(byVu.map((p) => p.data.tags?.vu))).toEqual(new Set(['1', '2']));
    expect(byVu.length).toBeGreaterThan(10);
  });

  it('ramping-arrival-rate starts one iteration per unit of the rate integral', async () => {
    const out = join(tmp.dir, 'rar.ndjson');
    const r = await bench(['run', '-q', '--out', `json=${out}`, fixture('ramping-arrival-rate-stages.js')]);
    expect(r.code, r.stderr).toBe(0);
    const lines = readNdjson(out);
    expect(points(lines, 'iterations').length + points(lines, 'dropped_iterations').length).toBe(9);
  });
});

describe('scenario offsets', () => {
  it('starts a scenario at its startTime', async () => {
    const out = join(tmp.dir, 'start.ndjson');
    const r = await bench(['run', '-q', '--out', `json=${out}`, fixture('start-time-offsets.js')]);
    expect(r.code, r.stderr).toBe(0);
    const starts = points(readNdjson(out), 'fixture_started_at');
    const at = Object.fromEntries(starts.map((p) => [p.data.tags?.which, p.data.value ?? 0]));
    expect(at.second - at.first).toBeGreaterThanOrEqual(950);
    expect(at.second - at.first).toBeLessThan(3000);
  });
});

describe('VU reuse', () => {
  it('a scenario starting as another ends gets the VUs that one returns, not new threads', async () => {
    const out = join(tmp.dir, 'reuse.ndjson');
    const r = await bench([
      'run',
      '-q',
      '--out',
      `json=${out}`,
      fixture('back-to-back-scenarios-reuse-vus.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = readNdjson(out);
    const vus = (scenario: string) =>
      new Set(
        points(lines, 'fixture_ran_on')
          .filter((p) => p.data.tags?.scenario === scenario)
          .map((p) => p.data.tags?.vu),
      );
    expect(vus('first')).toEqual(new Set(['1', '2']));
    expect(vus('second')).toEqual(new Set(['1', '2']));
    expect(Math.max(...points(lines, 'vus_max').map((p) => p.data.value ?? 0))).toBe(2);
  });
});

describe('signals', () => {
  it('a first SIGINT ends the run gracefully with exit 105, teardown and summary included', async () => {
    const { code, stdout, stderr } = await bench(
      ['run', '-q', fixture('interrupt-signal-exit-105.js')],
      {},
      30_000,
      { sigintAfterMs: 2500 },
    );
    expect(code, stderr).toBe(105);
    expect(stderr).toMatch(/teardown after signal/);
    expect(stdout).toMatch(/TOTAL RESULTS/);
  });

  it('a first SIGINT during setup() throws once from its next sleep: its catch runs, no iteration, no teardown', async () => {
    const { code, stderr } = await bench(
      ['run', '-q', fixture('interrupt-during-setup-exit-105.js')],
      {},
      30_000,
      { sigintOn: /setup started/ },
    );
    expect(code, stderr).toBe(105);
    expect(stderr).toMatch(/Stopping the test: setup\(\) is interrupted at its next sleep or request/);
    expect(stderr).toMatch(
      /setup cleans up after: setup\(\) was interrupted because the run was told to stop/,
    );
    expect(stderr).toMatch(
      /setup\(\) did not finish: setup\(\) was interrupted because the run was told to stop/,
    );
    expect(stderr).not.toMatch(/setup finished|teardown cleans up|iteration ran/);
  });

  it('a setup() that returns after the interruption gets its teardown, and still starts no iteration', async () => {
    const { code, stderr } = await bench(
      ['run', '-q', '-e', 'RETURN_AFTER_INTERRUPT=1', fixture('interrupt-during-setup-exit-105.js')],
      {},
      30_000,
      { sigintOn: /setup started/ },
    );
    expect(code, stderr).toBe(105);
    expect(stderr).toMatch(/setup cleans up after: setup\(\) was interrupted/);
    expect(stderr).toMatch(/teardown cleans up namespace-1/);
    expect(stderr).not.toMatch(/setup\(\) did not finish|iteration ran/);
  });
});
