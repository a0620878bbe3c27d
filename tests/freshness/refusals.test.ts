// Experiment 3's bad knobs and unconfirmed real-service runs are refused in init, before any request: the runner
// exits with its init-error code (107, as k6) and the message names the variable. No emulator, no network.
import { describe, expect, it } from 'vitest';
import { FRESHNESS_KNOBS } from '../../lib/freshness/config';
import { expectRefusedInInit, FAKE_KEY, REAL_SERVICE_ENV, runScript } from '../experiment-script';

describe('freshness.js refusals', () => {
  it.each([
    [{ TAIL_LIMIT_BYTES: '1MiB' }, 'ALLOW_SMALL_LIMITS=1'],
    [
      { ALLOW_SMALL_LIMITS: '1', TAIL_LIMIT_BYTES: '1MiB', BACKLOG_LIMIT_BYTES: '2MiB' },
      'BACKLOG_LIMIT_BYTES: must be at least 4 x TAIL_LIMIT_BYTES',
    ],
    [{ PROBE_RATE: '0' }, 'PROBE_RATE: 0 is out of range'],
    [{ PROBE_TIMEOUT_S: '1', PROBE_INTERVAL_MS: '600' }, 'PROBE_TIMEOUT_S: must allow at least two reads'],
    [{ PROBE_RATES: '2' }, 'PROBE_RATES: is not a knob of build/freshness.js: did you mean PROBE_RATE?'],
  ])('refuses %j in init with exit 107, the message alone', (env, message) => {
    const output = expectRefusedInInit('freshness.js', env, message);
    expect(output).not.toMatch(/^\s+at /m);
  });

  it('refuses the real service without TPUF_BENCH_CONFIRM_COST=1, printing the plan with dollars, never the key', () => {
    const output = expectRefusedInInit('freshness.js', REAL_SERVICE_ENV, 'TPUF_BENCH_CONFIRM_COST');
    expect(output).toMatch(/probes of 3 rows among them/);
    expect(output).toMatch(/\$\d/);
    expect(output).not.toContain(FAKE_KEY);
  });
});

describe('freshness.js -e HELP=1', () => {
  it('lists every knob with its default and exits 0 without a target', () => {
    const { code, output } = runScript('freshness.js', { HELP: '1' });
    expect(code).toBe(0);
    for (const [name, knob] of Object.entries(FRESHNESS_KNOBS))
      expect(output, name).toMatch(
        new RegExp(`^  ${name} +${knob.default.replace(/[()+.*<>]/g, '\\$&')} `, 'm'),
      );
  });
});
