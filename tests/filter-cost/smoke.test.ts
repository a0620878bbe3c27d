// The smoke profile of experiment 2 (make filter-cost-smoke) inside `make test`: the real launcher, runner and a
// fresh emulator per configuration. Every run's thresholds must pass (each cell measured, no errors, exact row
// counts, no dropped iterations); this test then checks the files the report step merged.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FilterCostResult } from '../../lib/filter-cost/results/json';
import type { FilterCostReport } from '../../lib/filter-cost/results/report';
import { launchFilterCost } from '../../scripts/filter-cost-launch';
import { PROFILES } from '../../scripts/filter-cost-profiles';

describe('make filter-cost-smoke', () => {
  const parent = mkdtempSync(join(tmpdir(), 'bench-filter-cost-'));
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('runs every configuration, passes every threshold and merges the report', {
    timeout: 240_000,
  }, async () => {
    let output = '';
    const result = await launchFilterCost({
      profileName: 'smoke',
      profile: PROFILES.smoke,
      extraArgs: ['--quiet'],
      resultsParent: parent,
      samplesParent: parent,
      env: { PATH: process.env.PATH },
      stdio: 'pipe',
      onOutput: (chunk) => {
        output += chunk;
      },
      log: (line) => {
        output += `${line}\n`;
      },
    });
    expect(
      result.manifest.runs.map((r) => [r.configuration, r.exit_code]),
      output,
    ).toEqual([
      ['none', 0],
      ['int-2', 0],
      ['string-unique', 0],
      ['int-unique-unfiltered', 0],
    ]);
    expect(result.exitCode).toBe(0);

    const results = result.manifest.runs.map(
      (run) => JSON.parse(readFileSync(join(result.dir, run.result as string), 'utf8')) as FilterCostResult,
    );
    for (const r of results) {
      expect(r.thresholds.failed, r.configuration).toEqual([]);
      expect(r.ingest.rows).toBe(2000);
      expect(r.storage.approx_row_count).toBe(2000);
      expect(r.drain.seconds).not.toBeNull();
      for (const cell of r.cells) {
        expect(cell.requests, `${r.configuration}/${cell.id}`).toBeGreaterThan(0);
        expect(cell.errors).toBe(0);
        expect(cell.returned_rows).toEqual({ min: cell.expected_rows, max: cell.expected_rows });
        if (cell.shape !== 'filter_ordered') expect(cell.recall?.queries).toBe(3);
      }
    }
    // One seed per launch: every configuration wrote the same vectors and asked the same query vectors.
    expect(new Set(results.map((r) => r.config.SEED)).size).toBe(1);
    expect(result.manifest.env.SEED).toBe(String(results[0].config.SEED));
    const [none, int2, stringUnique, unfiltered] = results;
    // Logical bytes per row: id 8 + 768 x 4 for the vector, plus 8 for the attribute (an int or an 8-byte string).
    expect(none.ingest.billable_bytes_written / 2000).toBe(3080);
    for (const r of [int2, stringUnique, unfiltered]) expect(r.storage.bytes_per_row).toBe(3088);
    expect(none.cells.map((c) => c.id)).toEqual(['ann_only']);
    expect(unfiltered.cells.map((c) => c.id)).toEqual(['ann_only']);
    expect(int2.cells.map((c) => c.id)).toEqual([
      'ann_only',
      'ann_filtered',
      'filter_ordered',
      'ann_range_50',
      'ann_range_100',
    ]);
    expect(int2.unreachable.map((u) => u.selectivity)).toEqual(['0.1', '1', '10']);
    expect(stringUnique.cells.find((c) => c.id === 'ann_filtered')).toMatchObject({
      matches: 1,
      expected_rows: 1,
    });

    expect(existsSync(join(result.dir, 'report.md'))).toBe(true);
    const report = JSON.parse(readFileSync(join(result.dir, 'report.json'), 'utf8')) as FilterCostReport;
    expect(report.baseline).toBe('none');
    expect(report.configurations.map((s) => s.configuration)).toEqual([
      'none',
      'int-2',
      'string-unique',
      'int-unique-unfiltered',
    ]);
    const annOnly = report.configurations[1].cells[0];
    expect(annOnly.samples).toBe(annOnly.requests);
    expect(annOnly.client_p50_ci?.[0]).not.toBeNull();
    expect(report.configurations[1].vs_baseline?.billable_bytes_per_row_delta).toBe(8);
  });
});
