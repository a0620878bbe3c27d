// Bad knobs and unconfirmed real-service runs are refused in init, before any request: the runner exits with its
// init-error code (107, as k6) and the message names the variable. No emulator and no network are involved.
import { describe, expect, it } from 'vitest';
import { runScript } from '../experiment-script';

const KEY = 'tpuf_refusaltestkeyrefusaltestkey00';
const run = (env: Record<string, string>) => runScript('backlog.js', env);

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
