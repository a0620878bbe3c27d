// Fixture scripts -> exit codes and the message that names the problem (k6's exit-code table).
import { describe, expect, it } from 'vitest';
import { bench, fixture } from './harness';

describe('bench run exit codes', () => {
  it.each([
    ['thresholds-failed-exit-99.js', 99, /thresholds on metrics 'fixture_ms' have been crossed/],
    [
      'unsupported-import-k6-x-redis.js',
      107,
      /unknown module: k6\/x\/redis \(k6 extensions are not supported/,
    ],
    [
      'removed-module-exit-107.js',
      107,
      /k6\/experimental\/redis has been removed\. Please migrate to the new version by changing your import to 'k6\/x\/redis'/,
    ],
    ['scenario-unknown-field-exit-104.js', 104, /scenario "bad": unknown field "rampUp"/],
    [
      'threshold-unknown-metric-exit-104.js',
      104,
      /invalid threshold defined on no_such_metric; reason: no metric name "no_such_metric" found/,
    ],
    ['test-fail-exit-110.js', 110, /test marked as failed: marked/],
    [
      'tls-version-unknown-exit-104.js',
      104,
      /tlsVersion: unknown TLS version 'ssl3.0'.*\n.*tlsCipherSuites: unknown cipher suite 'TLS_NOT_A_SUITE'/,
    ],
    ['setup-timeout-exit-100.js', 100, /setup\(\) execution timed out after 1 seconds/],
    ['no-exported-functions-exit-107.js', 107, /no exported functions in script/],
    ['init-error-exit-107.js', 107, /broken init/],
    ['setup-throws-exit-107.js', 107, /setup broke/],
  ])('%s exits %i', async (name, code, message) => {
    const r = await bench(['run', '-q', fixture(name)]);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toMatch(message);
  });

  it('an unknown scenario field exits 104 even when --vus/--iterations replace the scenarios', async () => {
    const r = await bench([
      'run',
      '-q',
      '--vus',
      '1',
      '--iterations',
      '1',
      fixture('scenario-unknown-field-replaced-exit-104.js'),
    ]);
    expect(r.code, r.stderr).toBe(104);
    expect(r.stderr).toMatch(/scenario "ramp": unknown field "startvus"/);
  });

  it('a throwing setup() runs no iteration and no teardown but still prints the summary', async () => {
    const r = await bench(['run', '-q', fixture('setup-throws-exit-107.js')]);
    expect(r.code).toBe(107);
    expect(r.stderr).not.toMatch(/iteration ran|teardown ran/);
    expect(r.stdout).toMatch(/TOTAL RESULTS/);
  });

  it('a setup() past setupTimeout is interrupted once: its catch runs, then the run exits 100', async () => {
    const r = await bench(['run', '-q', fixture('setup-timeout-cleans-up-exit-100.js')]);
    expect(r.code, r.stderr).toBe(100);
    expect(r.stderr).toMatch(
      /setup cleans up after: setup\(\) was interrupted because it ran past setupTimeout/,
    );
    expect(r.stderr).toMatch(/setup\(\) execution timed out after 1 seconds/);
    expect(r.stderr).not.toMatch(/iteration ran|teardown ran/);
  });

  it('exec.test.abort() exits 108 at once and teardown still runs', async () => {
    const r = await bench(['run', '-q', fixture('test-abort-exit-108.js')]);
    expect(r.code, r.stderr).toBe(108);
    expect(r.stderr).toMatch(/test aborted: enough/);
    expect(r.stderr).toMatch(/teardown ran/);
    expect(r.ms).toBeLessThan(15_000);
  });

  it('an abortOnFail threshold stops the run early with exit 99', async () => {
    const r = await bench(['run', '-q', fixture('abort-on-fail-exit-99.js')]);
    expect(r.code, r.stderr).toBe(99);
    expect(r.stderr).toMatch(
      /thresholds on metrics 'fixture_bad' were crossed; at least one has abortOnFail enabled/,
    );
    expect(r.ms).toBeLessThan(20_000);
  });

  it('--no-thresholds skips evaluation and turns definition errors into warnings', async () => {
    const bad = await bench([
      'run',
      '-q',
      '--no-thresholds',
      fixture('threshold-unknown-metric-exit-104.js'),
    ]);
    expect(bad.code, bad.stderr).toBe(0);
    expect(bad.stderr).toMatch(/level=warning msg="invalid threshold defined on no_such_metric/);
    const failing = await bench(['run', '-q', '--no-thresholds', fixture('thresholds-failed-exit-99.js')]);
    expect(failing.code, failing.stderr).toBe(0);
  });

  it('a missing script is a generic error (255) naming the file', async () => {
    const r = await bench(['run', 'tests/runner/fixtures/does-not-exist.js']);
    expect(r.code).toBe(255);
    expect(r.stderr).toMatch(/could not read script tests\/runner\/fixtures\/does-not-exist.js/);
  });

  it('an unknown flag is a usage error (255) naming the flag', async () => {
    const r = await bench(['run', '--no-such-flag', fixture('test-fail-exit-110.js')]);
    expect(r.code).toBe(255);
    expect(r.stderr).toMatch(/unknown flag --no-such-flag/);
  });
});
