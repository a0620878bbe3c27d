// Bad knobs and unconfirmed real-service runs are refused in init, before any request: the runner exits with its
// init-error code (107, as k6) and the message names the variable. No emulator and no network are involved.
import { describe, expect, it } from 'vitest';
import { expectRefusedInInit, FAKE_KEY, REAL_SERVICE_ENV } from '../experiment-script';

describe('backlog.js refusals', () => {
  it.each([
    [{ DIMS: '0' }, 'DIMS: 0 is out of range'],
    [{ LT_START_BYTES: '1MiB' }, 'ALLOW_SMALL_THRESHOLDS=1'],
    [{ QUERY_RATE: 'lots' }, 'QUERY_RATE: "lots" is not a number'],
    [{ TURBOPUFFER_BASE_URL: 'http://192.0.2.1:8787' }, 'is not a loopback address'],
  ])('refuses %j in init with exit 107', (env, message) => {
    expectRefusedInInit('backlog.js', env, message);
  });

  it('refuses the real service without TPUF_BENCH_CONFIRM_COST=1, printing the plan and never the key', () => {
    const output = expectRefusedInInit('backlog.js', REAL_SERVICE_ENV, 'TPUF_BENCH_CONFIRM_COST');
    expect(output).toContain('write at most 1500000 rows');
    expect(output).not.toContain(FAKE_KEY);
  });
});
