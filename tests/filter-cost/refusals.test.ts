// Bad knobs and unconfirmed real-service runs are refused before anything is written: by the script in init (exit
// 107, the message names the variable) and by the launcher before its first run. No emulator, no network.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LaunchRefused, launchFilterCost } from '../../scripts/filter-cost-launch';
import { PROFILES } from '../../scripts/filter-cost-profiles';
import { expectRefusedInInit, FAKE_KEY, REAL_SERVICE_ENV } from '../experiment-script';

describe('filter-cost.js refusals', () => {
  it.each([
    [{ ROWS: '1000', CARDINALITY: '5000' }, 'CARDINALITY: 5000 distinct values cannot fit in ROWS=1000'],
    [{ ATTRIBUTE: 'none', FILTERABLE: '0' }, 'FILTERABLE: has no effect with ATTRIBUTE=none'],
    [{ SELECTIVITIES: '0' }, 'SELECTIVITIES: "0" is not a percentage of rows matching'],
    [{ TURBOPUFFER_BASE_URL: 'http://192.0.2.1:8787' }, 'is not a loopback address'],
  ])('refuses %j in init with exit 107', (env, message) => {
    expectRefusedInInit('filter-cost.js', env, message);
  });

  it('refuses the real service without TPUF_BENCH_CONFIRM_COST=1, printing the plan and never the key', () => {
    const output = expectRefusedInInit('filter-cost.js', REAL_SERVICE_ENV, 'TPUF_BENCH_CONFIRM_COST');
    expect(output).toContain('configuration int-100: write 1000000 rows');
    expect(output).not.toContain(FAKE_KEY);
  });
});

describe('launcher refusals', () => {
  const parent = mkdtempSync(join(tmpdir(), 'bench-filter-cost-refusal-'));
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('refuses bad overrides before the first run, naming the configuration and variable', async () => {
    const launch = launchFilterCost({
      profileName: 'smoke',
      profile: PROFILES.smoke,
      extraArgs: ['-e', 'ROWS=1'],
      resultsParent: parent,
      samplesParent: parent,
      log: () => {},
    });
    await expect(launch).rejects.toThrow(LaunchRefused);
    await expect(launch).rejects.toThrow(
      'configuration {"ATTRIBUTE":"int","CARDINALITY":"2"}: CARDINALITY: 2 distinct values cannot fit in ROWS=1',
    );
    expect(readdirSync(parent)).toEqual([]);
  });

  it('prints the summed real-service plan and refuses without confirmation, never logging the key', async () => {
    const lines: string[] = [];
    const launch = launchFilterCost({
      profileName: 'service',
      profile: PROFILES.service,
      resultsParent: parent,
      samplesParent: parent,
      env: REAL_SERVICE_ENV,
      log: (line) => lines.push(line),
    });
    await expect(launch).rejects.toThrow('TPUF_BENCH_CONFIRM_COST');
    await expect(launch).rejects.toThrow('13 namespaces in sequence: write 13000000 rows');
    expect(lines.some((l) => l.startsWith('total: 13 namespaces'))).toBe(true);
    expect(lines.join('\n')).not.toContain(FAKE_KEY);
    expect(existsSync(parent) && readdirSync(parent)).toEqual([]);
  });

  it('refuses the service profile without an API key instead of running against nothing', async () => {
    await expect(
      launchFilterCost({ profileName: 'service', profile: PROFILES.service, env: {}, log: () => {} }),
    ).rejects.toThrow('TURBOPUFFER_API_KEY: profile service targets the real service');
  });

  it('refuses an unknown --configs label', async () => {
    await expect(
      launchFilterCost({ profileName: 'smoke', profile: PROFILES.smoke, only: ['int-7'], log: () => {} }),
    ).rejects.toThrow('--configs: no configuration int-7 in profile smoke; use none, int-2, string-unique');
  });
});
