import { describe, expect, it } from 'vitest';
import { jsonFileText } from '../../results/run-record';
import { failedThresholds } from '../../results/summary-data';
import { readBacklogConfig } from '../config';
import { SMALL_ENV } from '../testdata/small-env';
import { buildCells, buildSnapshots, errorsExpected } from './cells';
import { buildResult } from './json';
import { renderMarkdown } from './markdown';
import { fixtureConfig, fixtureRun, fixtureSummary } from './testdata/summary-fixture';
import { renderText } from './text';

describe('buildCells', () => {
  it('makes one row per phase x consistency in the published order', () => {
    const cells = buildCells(fixtureSummary(), 5);
    expect(cells.map((c) => `${c.phase}/${c.consistency}`)).toEqual([
      'idle/strong',
      'idle/eventual',
      'indexing_below_limit/strong',
      'indexing_below_limit/eventual',
      'indexing_above_limit/strong',
      'indexing_above_limit/eventual',
    ]);
  });

  it('reads counts, rates, percentiles and window-edge backlog from the sub-metrics', () => {
    const strongAbove = buildCells(fixtureSummary(), 5)[4];
    expect(strongAbove).toEqual({
      phase: 'indexing_above_limit',
      consistency: 'strong',
      requests: 100,
      errors: 45,
      error_rate: 0.45,
      errors_by_status: { '429': 45 },
      qps: 20,
      client_ms: { p50: 4.5, p95: 8.25, p99: 14 },
      server_ms: { p50: 3, p95: 4 },
      query_execution_ms: { p50: 2.5, p95: 3 },
      exhaustive_search_count: { p50: 2000, max: 4000 },
      from_intended_ms: { p50: 5, p99: 11 },
      backlog_bytes: { start: 9 * 2 ** 20, end: 10 * 2 ** 20 },
      errors_expected: true,
      window: { start: '2026-01-02T03:04:30.000Z', end: '2026-01-02T03:04:35.000Z' },
      recall_at_k: { mean: null, samples: 0 },
      // Client p99 14 ms against the idle strong cell's 8 ms.
      p99_jitter: 1.75,
    });
    expect(buildCells(fixtureSummary(), 5)[5]).toMatchObject({ recall_at_k: { mean: 0.9, samples: 5 } });
  });

  it('labels as expected only 429s of strong queries above the limit', () => {
    expect(errorsExpected('indexing_above_limit', 'strong', 45, { '429': 45 })).toBe(true);
    expect(errorsExpected('indexing_above_limit', 'strong', 46, { '429': 45, '500': 1 })).toBe(false);
    expect(errorsExpected('indexing_above_limit', 'eventual', 3, { '429': 3 })).toBe(false);
    expect(errorsExpected('idle', 'strong', 3, { '429': 3 })).toBe(false);
    expect(errorsExpected('indexing_above_limit', 'strong', 0, {})).toBe(false);
  });

  it('reports a cell nobody measured as zero requests and null latencies and backlog', () => {
    const cells = buildCells({ metrics: {} }, 5);
    expect(cells[2]).toMatchObject({
      requests: 0,
      errors: 0,
      error_rate: 0,
      qps: 0,
      client_ms: { p50: null, p95: null, p99: null },
      backlog_bytes: { start: null, end: null },
      window: { start: null, end: null },
    });
  });
});

describe('buildSnapshots and failedThresholds', () => {
  it('orders the writer snapshots by time and labels them', () => {
    const snapshots = buildSnapshots(fixtureSummary());
    expect(snapshots).toHaveLength(12);
    expect(snapshots[0]).toEqual({
      time: '2026-01-02T03:04:06.200Z',
      unindexed_bytes: 0,
      approx_row_count: 1000,
      label: 'idle/strong/start',
    });
    expect(snapshots.map((s) => s.time)).toEqual([...snapshots.map((s) => s.time)].sort());
  });

  it('lists the failed threshold expressions', () => {
    const data = fixtureSummary();
    data.metrics.dropped_iterations.thresholds = { 'count==0': { ok: false } };
    expect(failedThresholds(data)).toEqual([{ metric: 'dropped_iterations', expression: 'count==0' }]);
  });
});

describe('buildResult (the stable JSON shape)', () => {
  const result = buildResult(fixtureSummary(), fixtureConfig, fixtureRun);

  it('has exactly the documented top-level keys', () => {
    expect(Object.keys(result)).toEqual([
      'experiment',
      'namespace',
      'status',
      'status_reason',
      'started_at',
      'finished_at',
      'target',
      'config',
      'versions',
      'cells',
      'metadata_snapshots',
      'dropped_iterations',
      'writes',
      'thresholds',
      'series',
    ]);
    expect(result).toMatchObject({
      experiment: 'backlog',
      namespace: 'bench-backlog-fixture',
      started_at: '2026-01-02T03:03:55.000Z',
      target: { kind: 'emulator', base_url: 'http://127.0.0.1:8787' },
      versions: { bench: '0.1.0', commit: 'abc1234', runner: 'bench 0.1.0', node: 'v20.19.0' },
      dropped_iterations: 0,
      writes: { rows: 7650, errors: 2 },
      thresholds: { passed: true, failed: [] },
    });
  });

  it('lists every knob under its variable name, the drawn seed included', () => {
    expect(result.config).toMatchObject({
      SEED_ROWS: 1000,
      LT_START_BYTES: 1048576,
      SEED: 42,
      QUERY_RATE: 20,
    });
    expect(Object.keys(result.config)).toHaveLength(26);
  });

  it('starts the snapshots with the one setup() took after indexing', () => {
    expect(result.metadata_snapshots[0]).toEqual({
      time: '2026-01-02T03:04:04.000Z',
      unindexed_bytes: 0,
      approx_row_count: 1000,
      label: 'setup',
    });
    expect(JSON.parse(jsonFileText(result))).toEqual(result);
  });
});

describe('the time series', () => {
  const { series } = buildResult(fixtureSummary(), fixtureConfig, fixtureRun);

  it('reads one column per consistency from the buckets that had queries', () => {
    expect(series).toMatchObject({ origin: '2026-01-02T03:04:05.000Z', interval_s: 1 });
    // Strong cells start at 1, 13 and 25 s (6 s apart, strong then eventual), five buckets each.
    expect(series.queries.strong.t_s).toEqual([1, 2, 3, 4, 5, 13, 14, 15, 16, 17, 25, 26, 27, 28, 29]);
    expect(series.queries.strong.requests).toEqual(Array(15).fill(20));
    expect(series.queries.strong.errors_by_status).toEqual({
      '429': [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 9, 9, 9, 9],
    });
    expect(series.queries.eventual.errors_by_status).toEqual({});
    expect(series.queries.eventual.client_ms.p50).toEqual([
      2.5, 2.5, 2.5, 2.5, 3.5, 3.5, 3.5, 3.5, 3.5, 4.5, 4.5, 4.5, 4.5, 4.5, 5.5,
    ]);
    expect(series.queries.eventual.client_ms.p99.slice(0, 2)).toEqual([6, 6]);
    expect(series.queries.strong.server_ms.p50.slice(-1)).toEqual([3]);
  });

  it("keeps each bucket's poll at its own time, with the rows written and the rows the index covers", () => {
    const m = series.metadata['bench-backlog-fixture'];
    expect(m.t_s.slice(0, 3)).toEqual([0.25, 1.25, 2.25]);
    expect(m.unindexed_bytes.slice(11, 14)).toEqual([0, 2 ** 20, 2 * 2 ** 20]);
    // Written: approx_row_count + unindexed_rows; indexed: approx_row_count, which never falls.
    expect(m.rows.slice(11, 14)).toEqual([1000, 1500, 2000]);
    expect(m.rows_indexed.slice(11, 14)).toEqual([1000, 1200, 1400]);
    // From 30 s the polls report no unindexed_rows: the rows written are unknown, the indexed ones are not.
    expect(m.rows.slice(29, 31)).toEqual([10_000, null]);
    expect(m.rows_indexed.slice(29, 31)).toEqual([4600, 4800]);
    expect(series.writes).toEqual({
      t_s: Array.from({ length: 24 }, (_, i) => 12 + i),
      rows: Array(24).fill(500),
    });
  });

  it('puts every cell, its warm-up and each phase on the same clock', () => {
    expect(series.windows.filter((w) => w.kind === 'cell').map((w) => [w.label, w.start_s, w.end_s])).toEqual(
      [
        ['idle/strong', 1, 6],
        ['idle/eventual', 7, 12],
        ['indexing_below_limit/strong', 13, 18],
        ['indexing_below_limit/eventual', 19, 24],
        ['indexing_above_limit/strong', 25, 30],
        ['indexing_above_limit/eventual', 31, 36],
      ],
    );
    expect(series.windows.filter((w) => w.kind === 'phase')).toEqual([
      { label: 'idle', kind: 'phase', start_s: 0, end_s: 12 },
      { label: 'indexing_below_limit', kind: 'phase', start_s: 12, end_s: 24 },
      { label: 'indexing_above_limit', kind: 'phase', start_s: 24, end_s: 36 },
    ]);
    expect(series.windows[0]).toEqual({ label: 'idle/strong', kind: 'warmup', start_s: 0, end_s: 1 });
  });
});

describe('renderMarkdown', () => {
  it('matches the golden file', async () => {
    const md = renderMarkdown(buildResult(fixtureSummary(), fixtureConfig, fixtureRun));
    await expect(md).toMatchFileSnapshot('./testdata/backlog.md.golden');
  });

  it('names the closed-loop workers of a QUERY_MODE=workers run (its QUERY_RATE is null)', () => {
    const workers = readBacklogConfig({
      ...SMALL_ENV,
      QUERY_MODE: 'workers',
      PHASE_TIMEOUT_S: '10',
      SEED: '42',
      TURBOPUFFER_BASE_URL: 'http://127.0.0.1:8787',
    });
    const scale = renderMarkdown(buildResult(fixtureSummary(), workers, fixtureRun))
      .split('\n')
      .find((line) => line.startsWith('- Scale: '));
    expect(scale).toContain('; 8 closed-loop workers sending ANN queries (top_k 10); ');
    expect(scale).not.toContain('null');
  });
});

describe('renderText', () => {
  it('prints the table and names failed thresholds and written files', () => {
    const data = fixtureSummary();
    data.metrics.dropped_iterations.thresholds = { 'count==0': { ok: false } };
    const text = renderText(buildResult(data, fixtureConfig, fixtureRun), ['results/x.md']);
    expect(text).toContain('  above limit  strong       100   20.0  45.0% (expected 429)  4.5ms');
    expect(text).toContain("    ✗ dropped_iterations 'count==0'");
    expect(text).toContain('  wrote results/x.md');
  });
});

describe('an aborted run', () => {
  // The fixture's cells: idle strong is measured from 03:04:06 to 03:04:11; stop the run inside it.
  const stoppedAt = Date.UTC(2026, 0, 2, 3, 4, 8);
  const result = buildResult(fixtureSummary(), fixtureConfig, { ...fixtureRun, finishedAtMs: stoppedAt });

  it('is marked aborted, says where it stopped, and leaves its thresholds unevaluated', () => {
    expect(result.status).toBe('aborted');
    expect(result.status_reason).toBe(
      "interrupted 1 min 01 s before the scenarios' planned end, during the idle, strong cell " +
        '(Ctrl+C, a signal, test.abort() or an abortOnFail threshold)',
    );
    expect(result.thresholds).toEqual({ evaluated: false, passed: null, failed: [] });
  });

  it('says so on the Markdown first line and in the console summary', () => {
    const md = renderMarkdown(result).split('\n');
    expect(md[0]).toBe(
      `> **Aborted run:** ${result.status_reason}. The figures cover only what ran; the thresholds were not evaluated.`,
    );
    expect(md).toContain('Thresholds not evaluated (aborted run); 0 dropped iterations.');
    const text = renderText(result, []);
    expect(text).toContain(`  ABORTED: ${result.status_reason}`);
    expect(text).toContain('  - thresholds not evaluated: aborted run');
  });

  it('is complete when the run reached its planned end', () => {
    const complete = buildResult(fixtureSummary(), fixtureConfig, fixtureRun);
    expect([complete.status, complete.status_reason, complete.thresholds.evaluated]).toEqual([
      'complete',
      null,
      true,
    ]);
  });
});
