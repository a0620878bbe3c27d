// The smoke run of experiment 1 (make backlog-smoke) inside `make test`: the real runner against a real emulator
// with the published smoke values. The script's thresholds carry the acceptance checks (exit 99 if any
// fails); this test checks the exit code and the result JSON they were computed from.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envFlags } from '../cli/experiments/env-flags';
import { runWithEmulator } from '../cli/experiments/with-emulator';
import { PROFILES } from '../lib/backlog/profiles';
import type { BacklogResult } from '../lib/backlog/results/json';
import { tempDir } from './temp-dir';

const MiB = 2 ** 20;

describe('make backlog-smoke', () => {
  const dir = tempDir('bench-smoke-');

  it('measures all six cells and passes every acceptance threshold', { timeout: 180_000 }, async () => {
    let output = '';
    const code = await runWithEmulator({
      emulatorArgs: PROFILES.smoke.emulator,
      runArgs: ['build/backlog.js', '--quiet', ...envFlags({ ...PROFILES.smoke.env, RESULTS_DIR: dir })],
      stdio: 'pipe',
      onOutput: (chunk) => {
        output += chunk;
      },
    });
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith('.md'))).toHaveLength(1);
    const json = files.find((f) => f.endsWith('.json'));
    expect(json, output).toBeDefined();
    const result = JSON.parse(readFileSync(join(dir, json as string), 'utf8')) as BacklogResult;
    expect(result.thresholds.failed, output).toEqual([]);
    expect(code, output).toBe(0);

    expect(result.target.kind).toBe('emulator');
    expect(result.status).toBe('complete');
    // The emulator's own settings, so the run can be rerun against an equal one.
    expect(result.target.emulator?.settings).toMatchObject({
      backlog_limit_bytes: 6 * MiB,
      eventual_tail_limit_bytes: 512 * 1024,
      index_bytes_per_second: 512 * 1024,
    });
    expect(result.dropped_iterations).toBe(0);
    expect(result.cells).toHaveLength(6);
    for (const cell of result.cells)
      expect(cell.requests, `${cell.phase}/${cell.consistency}`).toBeGreaterThan(0);
    for (const cell of result.cells.filter((c) => c.phase === 'indexing_below_limit')) {
      for (const edge of [cell.backlog_bytes.start, cell.backlog_bytes.end]) {
        expect(edge).toBeGreaterThanOrEqual(1 * MiB);
        expect(edge).toBeLessThanOrEqual(4 * MiB);
      }
    }
    for (const cell of result.cells.filter((c) => c.phase === 'indexing_above_limit')) {
      expect(cell.backlog_bytes.start).toBeGreaterThanOrEqual(8 * MiB);
      expect(cell.backlog_bytes.end).toBeGreaterThanOrEqual(8 * MiB);
    }
    const strongAbove = result.cells.find(
      (c) => c.phase === 'indexing_above_limit' && c.consistency === 'strong',
    );
    expect(strongAbove?.errors).toBeGreaterThan(0);
    expect(strongAbove?.errors_by_status).toEqual({ '429': strongAbove?.errors });
    for (const cell of result.cells.filter((c) => c.consistency === 'eventual')) expect(cell.errors).toBe(0);
  });
});
