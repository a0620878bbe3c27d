// Experiment 1 survives the split (issue 18): the smoke profile as `bench run --instances 3` against one emulator.
// Setup runs once, the three instances' query rates add up to the configured rate, the script's thresholds pass on
// the merged samples, and no document id is written twice (the emulator's count of documents is the seed rows plus
// every acknowledged write).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BacklogResult } from '../../lib/backlog/results/json';
import { PROFILES } from '../../scripts/backlog-profiles';
import { envFlags } from '../../scripts/env-flags';
import { runBench, startEmulator, stopProcess } from '../../scripts/with-emulator';

// The smoke profile with 3 s cells: every phase and gate, in about a minute.
const env = { ...PROFILES.smoke.env, QUERY_DURATION_S: '3', CLEANUP: '0' };

describe('make backlog-smoke INSTANCES=3', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-instances-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives one instance's cells on merged data, with no id written twice", {
    timeout: 240_000,
  }, async () => {
    const { child: emulator, baseUrl } = await startEmulator(PROFILES.smoke.emulator);
    try {
      let output = '';
      const { TURBOPUFFER_API_KEY: _key, ...baseEnv } = process.env;
      const code = await runBench({
        runArgs: [
          'build/backlog.js',
          '--quiet',
          '--instances',
          '3',
          ...envFlags({ ...env, RESULTS_DIR: dir }),
        ],
        baseEnv,
        extraFlags: ['-e', `TURBOPUFFER_BASE_URL=${baseUrl}`],
        stdio: 'pipe',
        onOutput: (chunk) => {
          output += chunk;
        },
      });
      const json = readdirSync(dir).find((f) => f.endsWith('.json'));
      expect(json, output).toBeDefined();
      const result = JSON.parse(readFileSync(join(dir, json as string), 'utf8')) as BacklogResult;
      expect(result.thresholds.failed, output).toEqual([]);
      expect(code, output).toBe(0);
      expect(output.match(/\[instance [123]\/3\]/g)?.length ?? 0, 'every instance logged').toBeGreaterThan(0);

      // One instance's cells: each gets rate x duration queries (what tests/smoke.test.ts's single run gets).
      const perCell = Number(env.QUERY_RATE) * Number(env.QUERY_DURATION_S);
      expect(result.cells).toHaveLength(6);
      for (const cell of result.cells) {
        const at = `${cell.phase}/${cell.consistency}`;
        expect(Math.abs(cell.requests - perCell) / perCell, `${at}: ${cell.requests}`).toBeLessThanOrEqual(
          0.02,
        );
      }
      expect(result.dropped_iterations).toBe(0);
      expect(result.writes.rows).toBeGreaterThan(0);

      const res = await fetch(`${baseUrl}/v2/namespaces/${result.namespace}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ aggregate_by: { count: ['Count'] }, consistency: { level: 'strong' } }),
      });
      const body = (await res.json()) as { aggregations: { count: number } };
      expect(res.status).toBe(200);
      expect(body.aggregations.count).toBe(Number(env.SEED_ROWS) + result.writes.rows);
    } finally {
      await stopProcess(emulator);
    }
  });
});
