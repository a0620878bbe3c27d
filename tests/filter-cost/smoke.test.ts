// The smoke profile of experiment 2 (make filter-cost-smoke) inside `make test`: the whole study at tiny scale as one
// `bench run` against a fresh emulator. Its thresholds must pass (every window measured at both consistencies,
// every filter within 20 % of its share, no write or query error, exact answers, nothing dropped); this test then
// reads the result file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchExperiment } from '../../cli/experiments/launch';
import type { FilterCostResult } from '../../lib/filter-cost/results/json';
import { tempDir } from '../temp-dir';

describe('make filter-cost-smoke', () => {
  const dir = tempDir('bench-filter-cost-smoke-');

  it('runs the study in one bench run and passes every threshold', { timeout: 180_000 }, async () => {
    let output = '';
    const { exitCode, files } = await launchExperiment({
      makeTarget: 'filter-cost-smoke',
      extraArgs: ['--quiet', '--summary-export', join(dir, 'summary.json'), '-e', `RESULTS_DIR=${dir}`],
      env: { PATH: process.env.PATH },
      say: () => {},
      stdio: 'pipe',
      onOutput: (chunk) => {
        output += chunk;
      },
    });
    expect(exitCode, output).toBe(0);
    const json = files.find((f) => f.endsWith('.json'));
    expect(json, output).toBeDefined();
    const r = JSON.parse(readFileSync(json as string, 'utf8')) as FilterCostResult;
    expect(r.thresholds.failed).toEqual([]);
    // No request of a clean run counts as failed: not even the probes that find each namespace absent (404) first.
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summary.metrics.http_req_failed.passes).toBe(0);
    expect(r.configurations.map((x) => [x.name, x.ingest.rows, x.storage.approx_row_count])).toEqual(
      ['baseline-head', 'int-2', 'string-100', 'int-10k', 'string-10k-unfiltered', 'baseline-tail'].map(
        (n) => [n, 20_000, 20_000],
      ),
    );
    for (const x of r.configurations) {
      expect(x.drain.duration_s, x.name).not.toBeNull();
      expect(x.drain.polls.length).toBeGreaterThan(0);
      expect(x.ingest.write_errors).toBe(0);
    }
    // Every planned cell at both consistencies: 1 + 1 + 3 + (1 + 4 x 2) + 1 + 1 = 16 cells.
    expect(r.cells).toHaveLength(32);
    for (const cell of r.cells) {
      const what = `${cell.configuration} ${cell.shape} ${cell.selectivity_target} ${cell.consistency}`;
      expect(cell.requests, what).toBeGreaterThan(0);
      expect(cell.errors, what).toBe(0);
      expect(cell.selectivity_measured, what).toBe(cell.selectivity_target);
      if (cell.shape !== 'filter_ordered') expect(cell.recall_at_10, what).not.toBeNull();
    }
    expect(r.unreachable.map((u) => `${u.configuration}@${u.selectivityTag}`)).toEqual(['int-2@1']);
    // Logical bytes per row: id 8 + 32 x 4 for the vector, plus 8 for the attribute (an int or an 8-byte string).
    expect(r.configurations[0].storage.billing.billable_logical_bytes_written).toBe(20_000 * 136);
    expect(r.configurations[2].storage.approx_logical_bytes).toBe(20_000 * 144);
    expect(readFileSync(files.find((f) => f.endsWith('.md')) as string, 'utf8')).toContain(
      '## Filtered p95 at 1% against the ann_only baseline',
    );
  });
});
