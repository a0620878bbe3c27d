// Bad knobs and unconfirmed real-service runs are refused before anything is written, by the script in init (exit
// 107, the message names the variable; the launcher's refusals are tests/target-rule.test.ts). `-e HELP=1` prints
// every knob and runs nothing. No emulator, no network.
import { describe, expect, it } from 'vitest';
import { FILTER_COST_KNOBS } from '../../lib/filter-cost/config';
import { expectRefusedInInit, FAKE_KEY, REAL_SERVICE_ENV, runScript } from '../experiment-script';

describe('filter-cost.js refusals', () => {
  it.each([
    [{ ROWS: '1000' }, 'CONFIGURATIONS: int-10k: 10000 distinct values cannot fit in ROWS=1000'],
    [{ CONFIGURATIONS: 'int-100,int-7x' }, 'CONFIGURATIONS: "int-7x" is not a configuration'],
    [{ SELECTIVITIES: '0' }, 'SELECTIVITIES: "0" is not a percentage of rows matching'],
    [{ QUERY_MODE: 'workers', QUERY_RATE: '5' }, 'QUERY_RATE: has no effect with QUERY_MODE=workers'],
    [{ TURBOPUFFER_BASE_URL: 'http://192.0.2.1:8787' }, 'is not a loopback address'],
    [{ SELECTIVITY: '1' }, 'SELECTIVITY: is not a knob of build/filter-cost.js: did you mean SELECTIVITIES?'],
  ])('refuses %j in init with exit 107', (env, message) => {
    expectRefusedInInit('filter-cost.js', env, message);
  });

  it('refuses the real service without TPUF_BENCH_CONFIRM_COST=1, printing the study plan and never the key', () => {
    const output = expectRefusedInInit('filter-cost.js', REAL_SERVICE_ENV, 'TPUF_BENCH_CONFIRM_COST');
    expect(output).toContain('14 namespaces in sequence, write 14000000 rows');
    expect(output).not.toContain(FAKE_KEY);
  });
});

describe('filter-cost.js -e HELP=1', () => {
  it('lists every knob with its default and meaning, exits 0 and needs no target', () => {
    // A bad knob beside HELP does not matter: help reads nothing else.
    const { code, output } = runScript('filter-cost.js', { HELP: '1', ROWS: 'many' });
    expect(code).toBe(0);
    for (const [name, knob] of Object.entries(FILTER_COST_KNOBS)) {
      const line = output.split('\n').find((l) => l.trimStart().startsWith(`${name} `));
      expect(line, name).toBeDefined();
      expect(line).toContain(knob.default);
    }
    expect(output).toContain('CONFIGURATIONS           the published 14');
    expect(output).not.toContain('setup()');
  });
});
