// Bad knobs and unconfirmed real-service runs are refused in init, before any request: the runner exits with its
// init-error code (107, as k6) and the message names the variable. No emulator and no network are involved.
import { describe, expect, it } from 'vitest';
import { BACKLOG_KNOBS } from '../../lib/backlog/config';
import { expectRefusedInInit, FAKE_KEY, REAL_SERVICE_ENV, runScript } from '../experiment-script';

describe('backlog.js refusals', () => {
  it.each([
    [{ DIMS: '0' }, 'DIMS: 0 is out of range'],
    [{ LT_START_BYTES: '1MiB' }, 'ALLOW_SMALL_THRESHOLDS=1'],
    [{ QUERY_RATE: 'lots' }, 'QUERY_RATE: "lots" is not a number'],
    [{ QUERY_MODE: 'workers', QUERY_VUS: '4' }, 'QUERY_VUS: has no effect with QUERY_MODE=workers'],
    [{ TURBOPUFFER_BASE_URL: 'http://192.0.2.1:8787' }, 'is not a loopback address'],
    [{ SEED_ROW: '10' }, 'SEED_ROW: is not a knob of build/backlog.js: did you mean SEED_ROWS? Nothing ran.'],
    [{ QUERY_DURATON_S: '5' }, 'did you mean QUERY_DURATION_S?'],
  ])('refuses %j in init with exit 107, the message alone', (env, message) => {
    const output = expectRefusedInInit('backlog.js', env, message);
    // No stack: a refused knob is the user's input, not a bug.
    expect(output).not.toMatch(/^\s+at /m);
  });

  it('refuses the real service without TPUF_BENCH_CONFIRM_COST=1, printing the plan and never the key', () => {
    const output = expectRefusedInInit('backlog.js', REAL_SERVICE_ENV, 'TPUF_BENCH_CONFIRM_COST');
    expect(output).toContain('write at most 1500000 rows');
    expect(output).not.toContain(FAKE_KEY);
  });
});

describe('backlog.js -e HELP=1', () => {
  it('lists every knob with its default and exits 0 without a target', () => {
    const { code, output } = runScript('backlog.js', { HELP: '1' });
    expect(code).toBe(0);
    for (const [name, knob] of Object.entries(BACKLOG_KNOBS))
      expect(output, name).toMatch(
        new RegExp(`^  ${name} +${knob.default.replace(/[()+.*]/g, '\\$&')} `, 'm'),
      );
    expect(output).toMatch(/^ {2}QUERY_WORKERS +8 /m);
  });
});
