// Experiment 1 survives the split (issue 18): the smoke profile as `bench run --instances 3` against one emulator.
// Setup runs once, the three instances' query rates add up to the configured rate, the script's thresholds pass on
// the merged samples, and no document id is written twice (the emulator's count of documents is the seed rows plus
// every acknowledged write).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { envFlags } from '../../cli/experiments/env-flags';
import { killProcessTree, runBench, startEmulator, stopProcess } from '../../cli/experiments/with-emulator';
import { PROFILES } from '../../lib/backlog/profiles';
import type { BacklogResult } from '../../lib/backlog/results/json';

// The smoke profile with 3 s cells, 6 s gate timeouts (each gate opened 2 s into its wait, the grid's least, in runs at
// load 8 to 13) and 300 seed rows (indexed in 2 s instead of 6): every phase and gate, the scenarios' bound 42 s
// (lib/backlog/phases.ts), the whole test about 70 s on a loaded 2-core machine.
const env = {
  ...PROFILES.smoke.env,
  QUERY_DURATION_S: '3',
  PHASE_TIMEOUT_S: '6',
  SEED_ROWS: '300',
  CLEANUP: '0',
};

describe('make backlog-smoke INSTANCES=3', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-instances-'));
  // What the test started: a run that outlives the test's timeout is killed here with its instances.
  const started: ChildProcess[] = [];
  afterAll(() => {
    for (const child of started) killProcessTree(child);
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives one instance's cells on merged data, with no id written twice", {
    timeout: 150_000,
  }, async () => {
    const { child: emulator, baseUrl } = await startEmulator(PROFILES.smoke.emulator);
    started.push(emulator);
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
        onSpawn: (runner) => started.push(runner),
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
      // A start on a window's edge may count on either side of it, in one instance as in three: one request is the
      // counting's resolution (2 % of 30 is less).
      const tolerance = Math.max(1, 0.02 * perCell);
      for (const cell of result.cells) {
        const at = `${cell.phase}/${cell.consistency}`;
        expect(Math.abs(cell.requests - perCell), `${at}: ${cell.requests}\n${output}`).toBeLessThanOrEqual(
          tolerance,
        );
      }
      expect(result.dropped_iterations, output).toBe(0);
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
