// Bad knobs and unconfirmed real-service runs are refused in init, before any request: the runner exits with its
// init-error code (107, as k6) and the message names the variable. No emulator and no network are involved.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'tpuf_refusaltestkeyrefusaltestkey00';

function run(env: Record<string, string>) {
  const flags = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const res = spawnSync(process.execPath, ['bin/bench.js', 'run', '--quiet', 'build/backlog.js', ...flags], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '' },
  });
  return { code: res.status, output: `${res.stdout}${res.stderr}` };
}

describe('backlog.js refusals', () => {
  it.each([
    [{ DIMS: '0' }, 'DIMS: 0 is out of range'],
    [{ LT_START_BYTES: '1MiB' }, 'ALLOW_SMALL_THRESHOLDS=1'],
    [{ QUERY_RATE: 'lots' }, 'QUERY_RATE: "lots" is not a number'],
    [{ TURBOPUFFER_BASE_URL: 'http://192.0.2.1:8787' }, 'is not a loopback address'],
  ])('refuses %j in init with exit 107', (env, message) => {
    const { code, output } = run(env);
    expect(output).toContain(message);
    expect(code).toBe(107);
  });

  it('refuses the real service without TPUF_BENCH_CONFIRM_COST=1, printing the plan and never the key', () => {
    const { code, output } = run({ TURBOPUFFER_API_KEY: KEY, TURBOPUFFER_REGION: 'gcp-us-central1' });
    expect(output).toContain('TPUF_BENCH_CONFIRM_COST');
    expect(output).toContain('write at most 1500000 rows');
    expect(output).not.toContain(KEY);
    expect(code).toBe(107);
  });
});
