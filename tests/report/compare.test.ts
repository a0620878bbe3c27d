// bench compare on golden results of both experiments: exact deltas, intervals and marks, the gate exit codes, and
// directories of repeats; through the real CLI (dist/bench.js) where the exit code matters.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backlogCells } from '../../lib/backlog/comparable';
import { buildResult } from '../../lib/backlog/results/json';
import {
  fixtureConfig,
  fixtureRun,
  fixtureSummary,
} from '../../lib/backlog/results/testdata/summary-fixture';
import { filterCostCells } from '../../lib/filter-cost/comparable';
import type { FilterCostResult } from '../../lib/filter-cost/results/json';
import { buildFilterCostResult } from '../../lib/filter-cost/results/json';
import * as fc from '../../lib/filter-cost/results/testdata/fixture';
import { jsonFileText } from '../../lib/results/run-record';
import { compareRuns } from '../../report/compare/compare';
import { changeText } from '../../report/compare/render';
import { tempDir } from '../temp-dir';

const root = join(import.meta.dirname, '../..');
const dir = tempDir('bench-compare-');
const write = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, jsonFileText(value));
  return file;
};
const bench = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'dist/bench.js'), ...args], { encoding: 'utf8', timeout: 30_000 });

const fcA = buildFilterCostResult(fc.fixtureSummary(), fc.fixtureConfig, fc.fixturePlan, fc.fixtureRunInfo());
/** B: int-100's 1 % filter 25 % slower at strong (intervals scaled alike), 20 errors where A had 2. */
function slower(r: FilterCostResult): FilterCostResult {
  const b: FilterCostResult = JSON.parse(JSON.stringify(r));
  for (const c of b.cells) {
    if (c.configuration === 'int-100' && c.shape === 'ann_filtered' && c.consistency === 'strong') {
      for (const p of ['p50', 'p95', 'p99'] as const) {
        c.client_ms[p] = (c.client_ms[p] as number) * 1.25;
        c.client_ms_ci95[p] = c.client_ms_ci95[p].map((x) => (x === null ? null : x * 1.25)) as [
          number,
          number,
        ];
      }
    }
    if (
      c.configuration === 'int-10k' &&
      c.shape === 'filter_ordered' &&
      c.selectivity_target === 0.1 &&
      c.consistency === 'strong'
    )
      c.errors = 20;
  }
  return b;
}
const fcB = slower(fcA);
const KEY = 'int-100/ann_filtered/1/strong';

describe('bench compare of two golden filter-cost results', () => {
  const cmp = compareRuns([filterCostCells(fcA)], [filterCostCells(fcB)]);
  const a = fcA.cells.find((c) => `${c.configuration}/${c.shape}/1/${c.consistency}` === KEY);
  if (a === undefined) throw new Error(`golden result lacks the cell ${KEY}`);

  it("gives the exact change and the interval both runs' 95 % intervals allow", () => {
    const p95 = cmp.cells.find((c) => c.key === KEY)?.changes.p95;
    const [lo, hi] = a.client_ms_ci95.p95 as [number, number];
    const est = a.client_ms.p95 as number;
    expect(p95?.delta).toBeCloseTo(0.25 * est, 12);
    expect(p95?.pct).toBeCloseTo(25, 9);
    expect(p95?.low).toBeCloseTo(1.25 * lo - hi, 12);
    expect(p95?.high).toBeCloseTo(1.25 * hi - lo, 12);
    expect(p95).toMatchObject({ method: 'intervals', significant: true });
    // Every other cell is unchanged: 0 with an interval around it, not significant.
    const same = cmp.cells.filter((c) => c.key !== KEY).map((c) => c.changes.p95);
    expect(same.every((c) => c.delta === 0 && c.significant === false)).toBe(true);
    expect(cmp.cells).toHaveLength(fcA.cells.length);
  });

  it('tests the error share with the two-proportion test', () => {
    const errors = cmp.cells.find((c) => c.key === 'int-10k/filter_ordered/10/strong')?.changes.errors;
    expect(errors).toMatchObject({ a: 1, b: 10, delta: 9, method: 'proportions', significant: true });
    // Wald: 9 ± 1.96 √(0.01·0.99/200 + 0.1·0.9/200) points.
    expect(changeText(errors as NonNullable<typeof errors>, 'errors')).toBe(
      '1.0% → 10.0% (+9.0 pt [+4.6, +13.4]) *',
    );
  });

  it('exits 99 when a gate is crossed, 0 when not, 255 on a malformed gate', () => {
    const fa = write('fc-a.json', fcA);
    const fb = write('fc-b.json', fcB);
    const crossed = bench('compare', fa, fb, '--fail-on', 'p95>+10%', '--fail-on', 'errors>5');
    expect(crossed.status).toBe(99);
    expect(crossed.stdout).toContain(`- p95>+10%: ${KEY} changed +25.0%`);
    expect(crossed.stdout).toContain('- errors>5: int-10k/filter_ordered/10/strong changed +9.0');
    expect(crossed.stderr).toBe('bench compare: 2 gates crossed (p95>+10%, errors>5) in fc-b.json\n');
    expect(bench('compare', fa, fb, '--fail-on', 'p95>+30%').status).toBe(0);
    expect(bench('compare', fa, fb, '--fail-on', 'p95>+10%', '--significant').status).toBe(99);
    expect(bench('compare', fa, fa, '--fail-on', 'p95>+0%').status).toBe(0);
    const bad = bench('compare', fa, fb, '--fail-on', 'p95~3');
    expect(bad.status).toBe(255);
    expect(bad.stderr).toContain("--fail-on 'p95~3': expected FIGURE OP CHANGE");
    const md = bench('compare', fa, fb, '--format', 'markdown');
    expect(md.stdout.split('\n').slice(0, 6)).toEqual([
      '# bench compare',
      '',
      `- A: ${fa} (filter-cost, commit abc123def456)`,
      `- B: ${fb} (filter-cost, commit abc123def456)`,
      '',
      '| Cell | p50 (ms) | p95 (ms) | p99 (ms) | Errors | Success QPS |',
    ]);
  });

  it('says which knobs differ when A and B ran different workloads, not the per-run ones', () => {
    const other: FilterCostResult = JSON.parse(JSON.stringify(fcA));
    const config = other.config as unknown as Record<string, unknown>; // the recorded knobs, whatever their types
    const dims = config.DIMS;
    config.DIMS = 32;
    config.SEED = 12345;
    const res = bench('compare', write('fc-dims-a.json', fcA), write('fc-dims-b.json', other));
    expect(res.status).toBe(0);
    expect(res.stdout).toContain(
      `  Knobs differ, so a cell of A and B may not measure the same workload: DIMS ${dims} → 32.\n`,
    );
    expect(bench('compare', 'published', write('fc-dims-c.json', other)).stdout).not.toContain(
      'Knobs differ',
    );
  });

  it('compares a result with the published tables (unmarked: they keep no counts or intervals)', () => {
    const res = bench('compare', 'published', write('fc-pub.json', fcA));
    expect(res.status).toBe(0);
    const line = res.stdout.split('\n').find((l) => l.includes('int-10k/filter_ordered/10/strong'));
    const b = fcA.cells.find(
      (c) =>
        c.configuration === 'int-10k' &&
        c.shape === 'filter_ordered' &&
        c.selectivity_target === 0.1 &&
        c.consistency === 'strong',
    )?.client_ms.p95 as number;
    expect(line).toContain(`230 → ${b.toFixed(2)} (−${(((229.9 - b) / 229.9) * 100).toFixed(1)}%) ?`);
  });
});

describe('bench compare of experiment 1 results', () => {
  const a = buildResult(fixtureSummary(), fixtureConfig, fixtureRun);
  /** Every strong bucket's p50 (and the cells' p50) a millisecond slower. */
  const shifted = (ms: number) => {
    const b = JSON.parse(JSON.stringify(a)) as typeof a;
    b.series.queries.strong.client_ms.p50 = b.series.queries.strong.client_ms.p50.map((x) =>
      x === null ? null : x + ms,
    );
    for (const c of b.cells)
      if (c.consistency === 'strong' && c.client_ms.p50 !== null) c.client_ms.p50 += ms;
    return b;
  };

  it("judges a percentile by the cell's per-bucket values (Mann–Whitney)", () => {
    const cmp = compareRuns([backlogCells(a)], [backlogCells(shifted(1))]);
    const p50 = cmp.cells.find((c) => c.key === 'idle/strong')?.changes.p50;
    expect(p50).toMatchObject({ a: 2.5, b: 3.5, delta: 1, method: 'buckets', significant: true });
    // Buckets 2.5 x4, 3.5 against 3.5 x4, 4.5 (the test in report/compare/stats.test.ts).
    expect(p50?.p).toBeCloseTo(0.0209213, 6);
    expect(changeText(p50 as NonNullable<typeof p50>, 'p50')).toBe('2.50 → 3.50 (+40.0% p=0.021) *');
    expect(cmp.cells.find((c) => c.key === 'idle/eventual')?.changes.p50).toMatchObject({
      delta: 0,
      significant: false,
    });
  });

  it("takes the mean over directories of repeats and judges it with Welch's t-test", () => {
    const da = join(dir, 'repeats-a');
    const db = join(dir, 'repeats-b');
    mkdirSync(da);
    mkdirSync(db);
    writeFileSync(join(da, 'r1.json'), jsonFileText(a));
    writeFileSync(join(da, 'r2.json'), jsonFileText(shifted(0.2)));
    writeFileSync(join(db, 'r1.json'), jsonFileText(shifted(1)));
    writeFileSync(join(db, 'r2.json'), jsonFileText(shifted(1.4)));
    // A's idle/strong p50: 2.5 and 2.7, B's: 3.5 and 3.9 -> +1.1 ms.
    const res = bench('compare', da, db, '--fail-on', 'p50>+30%', '--significant');
    expect(res.stdout).toContain(`A: ${da}: 2 repeats of backlog (commit abc1234)`);
    expect(res.stdout).toContain("mean over its repeats (2 and 2); intervals and marks: Welch's t-test");
    const line = res.stdout.split('\n').find((l) => l.trim().startsWith('idle/strong')) as string;
    // Two repeats a side leave Welch's t-test 1.5 degrees of freedom: the interval spans 0, so the gate that
    // asks for significance holds and the one that does not is crossed.
    expect(line).toMatch(/2\.60 → 3\.70 \(\+42\.3% \[−\d+\.\d, \+\d+\.\d\]\) ≈/);
    expect(res.status).toBe(0);
    expect(bench('compare', da, db, '--fail-on', 'p50>+30%').status).toBe(99);
    expect(bench('compare', da, join(dir, 'fc-a.json')).stderr).toContain(
      'A is a backlog result and B a filter-cost one',
    );
  });
});
