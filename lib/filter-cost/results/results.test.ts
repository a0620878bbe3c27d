import { describe, expect, it } from 'vitest';
import { jsonFileText } from '../../results/run-record';
import { timeline } from '../timeline';
import { buildFilterCostResult, studyStatus } from './json';
import { renderFilterCostMarkdown } from './markdown';
import { fixtureConfig, fixturePlan, fixtureRunInfo, fixtureSummary } from './testdata/fixture';
import { renderFilterCostText } from './text';

const result = buildFilterCostResult(fixtureSummary(), fixtureConfig, fixturePlan, fixtureRunInfo());

describe('the study result', () => {
  it('has the stable top-level keys, in order', () => {
    expect(Object.keys(result)).toEqual([
      'experiment',
      'namespace_prefix',
      'status',
      'status_reason',
      'started_at',
      'finished_at',
      'target',
      'config',
      'versions',
      'configurations',
      'drift_pct',
      'baseline_mean_rows_per_s',
      'filterable_deltas',
      'cells',
      'unreachable',
      'latency_grid_percents',
      'dropped_iterations',
      'thresholds',
      'series',
    ]);
    expect(Object.keys(result.configurations[0])).toEqual([
      'name',
      'namespace',
      'attribute',
      'ingest',
      'drain',
      'storage',
    ]);
    expect(Object.keys(result.cells[0])).toEqual([
      'configuration',
      'shape',
      'consistency',
      'selectivity_target',
      'selectivity_measured',
      'filter',
      'requests',
      'errors',
      'errors_by_status',
      'qps',
      'client_ms',
      'client_ms_ci95',
      'server_ms',
      'recall_at_10',
      'exhaustive_search_count_p50',
      'returned_rows',
      'from_intended_ms',
      'latency_grid',
    ]);
  });

  it('keeps the time series on the study clock: polls per configuration, query buckets and every window', () => {
    const { series } = result;
    expect(series).toMatchObject({ origin: '2026-01-02T03:04:05.000Z', interval_s: 2 });
    // int-100 (the third configuration) starts 13 s in; its polls, with the rows written (approx_row_count +
    // unindexed_rows) and the rows the index covers (approx_row_count).
    expect(series.metadata['int-100']).toEqual({
      t_s: [13, 13.5, 14, 15.35, 15.6],
      unindexed_bytes: [0, 12_352_000, 27_792_000, 9_264_000, 0],
      rows: [0, 4000, 10_000, 20_000, 20_000],
      rows_indexed: [0, 0, 1000, 17_000, 20_000],
    });
    expect(series.windows.slice(4, 6)).toEqual([
      { label: 'int-100/ingest', kind: 'phase', start_s: 13, end_s: 15.1 },
      { label: 'int-100/drain', kind: 'phase', start_s: 15.1, end_s: 15.6 },
    ]);
    // The queries start 60 s in (the end of setup); the first window follows the 5 s JIT warm-up and its gap.
    // The eventual buckets resume where the strong window (and its graceful stop) ends, at 6 + 13 s.
    expect(series.queries.eventual.t_s.slice(0, 4)).toEqual([60, 62, 64, 78]);
    expect(series.queries.strong.t_s[0]).toBe(66);
    expect(series.queries.strong.client_ms.p50[0]).toBe(4.5);
    expect(series.queries.eventual.requests[0]).toBe(10);
    const first = series.windows.filter((w) => w.label === 'baseline-head/ann_only/100/strong');
    expect(first).toEqual([
      { label: 'baseline-head/ann_only/100/strong', kind: 'warmup', start_s: 66, end_s: 68 },
      { label: 'baseline-head/ann_only/100/strong', kind: 'cell', start_s: 68, end_s: 78 },
    ]);
  });

  it("computes ingest rates over wall time, the drift and the comparison with the baselines' mean", () => {
    const [head, int2] = result.configurations;
    expect(head.ingest.rows_per_s).toBeCloseTo(20_000 / 2, 9);
    expect(head.ingest.mb_per_s).toBeCloseTo(41 / 2, 9);
    expect(head.attribute).toEqual({ type: 'none', cardinality: null, filterable: null });
    expect(int2.attribute).toEqual({ type: 'int', cardinality: 2, filterable: true });
    // baseline-tail is the 6th configuration: wall 2.1 s against 2.0 s for the head.
    expect(result.drift_pct).toBeCloseTo((20_000 / 2.1 / 10_000 - 1) * 100, 9);
    expect(int2.ingest.vs_baseline_mean_pct).toBeCloseTo(
      (20_000 / 2.05 / ((10_000 + 20_000 / 2.1) / 2) - 1) * 100,
      9,
    );
    expect(result.filterable_deltas).toEqual([
      {
        filterable: 'int-10k',
        unfiltered: 'int-10k-unfiltered',
        logical_bytes: 4000,
        billable_bytes_written: 0,
      },
    ]);
  });

  it('keeps every window at both consistencies, with the counted selectivity and the grid behind its percentiles', () => {
    expect(result.cells).toHaveLength(2 * fixturePlan.cells.length);
    const cell = result.cells.find(
      (c) => c.configuration === 'int-10k' && c.shape === 'ann_filtered' && c.selectivity_target === 0.001,
    );
    expect(cell).toMatchObject({
      consistency: 'strong',
      selectivity_measured: 0.001,
      filter: ['attr', 'Lt', 10],
      requests: 200,
      qps: 20,
    });
    expect(cell?.latency_grid?.values).toHaveLength(result.latency_grid_percents.length);
    expect(cell?.client_ms.p95).toBe(cell?.latency_grid?.values[result.latency_grid_percents.indexOf(95)]);
    expect(result.unreachable.map((u) => `${u.configuration}@${u.selectivityTag}`)).toEqual(['int-2@1']);
  });

  it('renders the Markdown report (golden), the published tables first', async () => {
    const md = renderFilterCostMarkdown(result);
    await expect(md).toMatchFileSnapshot('./testdata/study.md.golden');
    expect(md.split('\n')[0]).toBe(
      '# Experiment 2: filterable-attribute cost, 6 configurations of 20000 rows',
    );
  });

  it('says on the first line when the bundle was built from a dirty tree', () => {
    const dirty = buildFilterCostResult(fixtureSummary(), fixtureConfig, fixturePlan, fixtureRunInfo(true));
    expect(renderFilterCostMarkdown(dirty).split('\n')[0]).toBe(
      '**Built from a dirty tree: commit abc123def456 plus uncommitted changes, so this run cannot be reproduced from the commit alone.**',
    );
  });

  it('renders the console summary (golden) and a JSON file that diffs line by line', async () => {
    await expect(renderFilterCostText(result, ['results/study.json'])).toMatchFileSnapshot(
      './testdata/study.txt.golden',
    );
    expect(jsonFileText(result).endsWith('}\n')).toBe(true);
  });
});

describe('an aborted study', () => {
  it('names the window that was running, marks the Markdown first line and leaves the thresholds unevaluated', () => {
    const run = fixtureRunInfo();
    const t = timeline(fixtureConfig, fixturePlan.cells);
    const w = t.windows[3];
    // Half a second into that window's measured part.
    const stoppedAt = run.setup.setupEndedAtMs + w.startMs + w.warmupMs + 500;
    const r = buildFilterCostResult(fixtureSummary(), fixtureConfig, fixturePlan, {
      ...run,
      finishedAtMs: stoppedAt,
    });
    expect(r.status).toBe('aborted');
    expect(r.status_reason).toContain(`during the ${w.cell.id} window at ${w.consistency} consistency`);
    expect(r.thresholds).toEqual({ evaluated: false, passed: null, failed: [] });
    expect(renderFilterCostMarkdown(r).split('\n')[0]).toMatch(/^> \*\*Aborted run:\*\* interrupted /);
    expect(studyStatus(t, run.setup.setupEndedAtMs, run.setup.setupEndedAtMs + t.totalMs)).toEqual({
      status: 'complete',
      status_reason: null,
    });
  });
});
