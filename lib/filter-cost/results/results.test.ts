import { describe, expect, it } from 'vitest';
import { jsonFileText } from '../../results/run-record';
import { planCells } from '../cells';
import { buildFilterCostResult } from './json';
import { renderFilterCostMarkdown } from './markdown';
import { buildReport, stat } from './report';
import { renderReportMarkdown } from './report-markdown';
import {
  baselineConfig,
  fixtureFilterCostSummary,
  fixtureManifest,
  fixtureRunInfo,
  int100Config,
} from './testdata/fixture';
import { renderFilterCostText } from './text';

const int100 = () =>
  buildFilterCostResult(
    fixtureFilterCostSummary(int100Config, 0),
    int100Config,
    planCells(int100Config),
    fixtureRunInfo(int100Config, 0.5),
  );
const baseline = (slower: number, drain: number) =>
  buildFilterCostResult(
    fixtureFilterCostSummary(baselineConfig, slower),
    baselineConfig,
    planCells(baselineConfig),
    fixtureRunInfo(baselineConfig, drain),
  );

describe('buildFilterCostResult (the per-configuration JSON)', () => {
  const r = int100();

  it('has exactly the documented top-level keys', () => {
    expect(Object.keys(r)).toEqual([
      'experiment',
      'configuration',
      'namespace',
      'started_at',
      'finished_at',
      'target',
      'attribute',
      'config',
      'versions',
      'ingest',
      'drain',
      'storage',
      'cells',
      'unreachable',
      'dropped_iterations',
      'thresholds',
    ]);
    expect(r.attribute).toEqual({
      name: 'attr',
      type: 'int',
      cardinality: 100,
      filterable: true,
      value_bytes: 8,
    });
    expect(JSON.parse(jsonFileText(r))).toEqual(r);
  });

  it('derives ingest throughput over the busy seconds and bytes per row once indexed', () => {
    expect(r.ingest).toMatchObject({ rows_per_s: 4000, request_mb_per_s: 16.4, billable_mb_per_s: 12.352 });
    expect(r.storage.bytes_per_row).toBe(3088);
  });

  it('reads each cell from its sub-metrics and joins the recall probes', () => {
    expect(r.cells.map((c) => c.id)).toEqual([
      'ann_only',
      'ann_filtered',
      'filter_ordered',
      'ann_range_1',
      'ann_range_10',
      'ann_range_50',
      'ann_range_100',
    ]);
    expect(r.cells[4]).toMatchObject({
      selectivity_pct: '10',
      matches: 100,
      filter: ['attr', 'Lt', 10],
      requests: 50,
      qps: 10,
      errors: 2,
      error_rate: 0.04,
      errors_by_status: { '429': 2 },
      client_ms: { p50: 4, p95: 8, p99: 10 },
      returned_rows: { min: 10, max: 10 },
      billable_bytes_queried: 256_000_000,
      recall: { queries: 4, mean: 0.975, min: 0.9, failed: 0 },
    });
    expect(r.cells[2].recall).toBeNull();
    expect(r.unreachable).toEqual([
      {
        selectivity: '0.1',
        reason: 'cardinality 100 has no set of values covering exactly 1 rows (nearest: 0 or 10)',
      },
    ]);
  });
});

describe('per-configuration renderers', () => {
  it('matches the Markdown golden file', async () => {
    await expect(renderFilterCostMarkdown(int100())).toMatchFileSnapshot(
      './testdata/filter-cost-int-100.md.golden',
    );
  });

  it('prints the console table', () => {
    const text = renderFilterCostText(int100(), ['results/x.md']);
    expect(text).toContain('  ann_range_10    10     50    4.0%    4ms    8ms   10ms  3ms      0.975');
    expect(text).toContain('  ingest 1000 rows at 4,000 rows/s, drain 0.50 s, 2.94 MiB logical');
    expect(text).toContain('  ✓ all thresholds passed, 0 dropped iterations');
  });
});

describe('buildReport (merged over configurations)', () => {
  const report = buildReport(fixtureManifest, [baseline(0, 0.25), int100(), baseline(1, 0.75)], {
    'int-100': {
      ann_only: {
        p50: { estimate: 2, low: 1.8, high: 2.3, samples: 50 },
        p99: { estimate: 6, low: 5.1, high: null, samples: 50 },
      },
    },
  });

  it('groups repeats into median and range and compares with the baseline of the same run', () => {
    expect(report.configurations.map((s) => [s.configuration, s.repeats])).toEqual([
      ['none', 2],
      ['int-100', 1],
    ]);
    const [none, int] = report.configurations;
    expect(none.drain_s).toEqual({ median: 0.5, min: 0.25, max: 0.75, n: 2 });
    expect(none.cells[0].client_p50_ms).toEqual({ median: 2.5, min: 2, max: 3, n: 2 });
    expect(none.vs_baseline).toBeNull();
    expect(int.vs_baseline).toEqual({
      rows_per_s_ratio: 1,
      billable_bytes_per_row_delta: 8,
      logical_bytes_per_row_delta: 8,
      drain_s_delta: 0,
      ann_only_p50_ratio: 0.8,
    });
    expect(int.cells[0]).toMatchObject({
      client_p50_ci: [1.8, 2.3],
      client_p99_ci: [5.1, null],
      samples: 50,
    });
    expect(JSON.parse(jsonFileText(report))).toEqual(report);
  });

  it('matches the report Markdown golden file', async () => {
    await expect(renderReportMarkdown(report)).toMatchFileSnapshot('./testdata/filter-cost-report.md.golden');
  });

  it('computes medians of even and odd counts and skips missing values', () => {
    expect(stat([3, null, 1, 2])).toEqual({ median: 2, min: 1, max: 3, n: 3 });
    expect(stat([4, 1])).toMatchObject({ median: 2.5 });
    expect(stat([])).toEqual({ median: null, min: null, max: null, n: 0 });
  });
});
