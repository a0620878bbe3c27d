// The jq recipes of experiment 1 against a result JSON and a `--out json` stream with known contents.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BacklogResult, buildResult } from '../../lib/backlog/results/json';
import { renderMarkdown } from '../../lib/backlog/results/markdown';
import {
  fixtureConfig,
  fixtureRun,
  fixtureSummary,
} from '../../lib/backlog/results/testdata/summary-fixture';
import { jsonFileText } from '../../lib/results/run-record';

const root = fileURLToPath(new URL('../..', import.meta.url));
const jq = (args: string[], input: string) =>
  execFileSync('jq', args, { cwd: root, input, encoding: 'utf8' });

/** The Markdown report's table: its lines that start with a pipe. */
/** The Markdown report's first table: the published one (a recall table follows it). */
const markdownTableOf = (r: BacklogResult) => {
  const lines = renderMarkdown(r).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return lines.slice(start, end);
};

describe('scripts/jq/backlog-table.jq', () => {
  const fixture = buildResult(fixtureSummary(), fixtureConfig, fixtureRun);

  it("prints the Markdown report's table from the result JSON", () => {
    expect(jq(['-r', '-f', 'scripts/jq/backlog-table.jq'], jsonFileText(fixture)).split('\n')).toEqual([
      ...markdownTableOf(fixture),
      '',
    ]);
    expect(markdownTableOf(fixture)[6]).toContain('45.0% (expected 429)');
  });

  it('agrees with the Markdown on any figures: nulls, whole and fractional ms, tiny shares, every byte unit', () => {
    const ms = fc.oneof(
      fc.constant(null),
      fc.integer({ min: 0, max: 5000 }),
      fc.double({ min: 0, max: 5000, noNaN: true }),
    );
    const bytes = fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 2 ** 42 }));
    const cell = fc.record({
      requests: fc.integer({ min: 0, max: 1_000_000 }),
      qps: fc.double({ min: 0, max: 10_000, noNaN: true }),
      error_rate: fc.oneof(fc.constant(0), fc.double({ min: 1e-6, max: 1, noNaN: true })),
      errors_expected: fc.boolean(),
      client_ms: fc.record({ p50: ms, p95: ms, p99: ms }),
      server_ms: fc.record({ p50: ms, p95: ms }),
      backlog_bytes: fc.record({ start: bytes, end: bytes }),
    });
    const size = fc.integer({ min: 1, max: 2 ** 41 });
    const results = fc
      .sample(
        fc.record({ cells: fc.array(cell, { minLength: 6, maxLength: 6 }), lt: size, cap: size, gt: size }),
        { numRuns: 60, seed: 15 },
      )
      .map(({ cells, lt, cap, gt }) => ({
        ...fixture,
        config: { ...fixture.config, LT_START_BYTES: lt, LT_CAP_BYTES: cap, GT_START_BYTES: gt },
        cells: fixture.cells.map((c, i) => ({ ...c, ...cells[i] })),
      }));
    // One jq process for all of them: each JSON document in the input gets its own table.
    const tables = jq(['-r', '-f', 'scripts/jq/backlog-table.jq'], results.map(jsonFileText).join(''));
    expect(tables.split('\n')).toEqual([...results.flatMap(markdownTableOf), '']);
  });
});

describe('scripts/jq/phase-latency.jq', () => {
  const point = (value: number, tags: Record<string, string>) =>
    JSON.stringify({
      metric: 'http_req_duration',
      type: 'Point',
      data: { time: '2026-01-02T03:04:05Z', value, tags },
    });
  const query = (phase: string, consistency: string) => ({
    name: 'query',
    phase,
    consistency,
    status: '200',
  });

  it("groups query latencies by phase and consistency with k6's percentile rule", () => {
    const stream = [
      JSON.stringify({
        type: 'Metric',
        metric: 'http_req_duration',
        data: { name: 'http_req_duration', type: 'trend' },
      }),
      point(10, query('transition', 'eventual')),
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((v) => point(v, query('indexing_above_limit', 'strong'))),
      point(4, query('idle', 'eventual')),
      point(2, query('idle', 'strong')),
      point(500, { name: 'write', phase: 'idle' }),
      JSON.stringify({
        metric: 'http_reqs',
        type: 'Point',
        data: { value: 1, tags: query('idle', 'strong') },
      }),
    ].join('\n');
    expect(jq(['-n', '-r', '-f', 'scripts/jq/phase-latency.jq'], stream).split('\n')).toEqual([
      'phase\tconsistency\tcount\tp50_ms\tp95_ms\tp99_ms\tmax_ms',
      'idle\tstrong\t1\t2\t2\t2\t2',
      'idle\teventual\t1\t4\t4\t4\t4',
      // p50 at index 4.5 of 1..10 = 5.5; p95 at 8.55 = 9.55; p99 at 8.91 = 9.91.
      'indexing_above_limit\tstrong\t10\t5.5\t9.55\t9.91\t10',
      'transition\teventual\t1\t10\t10\t10\t10',
      '',
    ]);
  });
});
