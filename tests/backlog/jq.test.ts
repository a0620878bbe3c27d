// The jq recipes of experiment 1 against a result JSON and a `--out json` stream with known contents.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildResult } from '../../lib/backlog/results/json';
import {
  fixtureConfig,
  fixtureRun,
  fixtureSummary,
} from '../../lib/backlog/results/testdata/summary-fixture';
import { jsonFileText } from '../../lib/results/run-record';

const root = fileURLToPath(new URL('../..', import.meta.url));
const jq = (args: string[], input: string) =>
  execFileSync('jq', args, { cwd: root, input, encoding: 'utf8' });

describe('scripts/jq/backlog-table.jq', () => {
  it('prints the published table from the result JSON', () => {
    const json = jsonFileText(buildResult(fixtureSummary(), fixtureConfig, fixtureRun));
    expect(jq(['-r', '-f', 'scripts/jq/backlog-table.jq'], json).split('\n')).toEqual([
      '| Phase | Consistency | Errors | Client p50 | p95 | p99 | Server p50 | p95 | QPS | Backlog start | Backlog end |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      '| Idle | strong | 0% | 2.5ms | 4.3ms | 8ms | 1ms | 2ms | 20 | 0 MiB | 0 MiB |',
      '| Idle | eventual | 0% | 2.5ms | 4.3ms | 8ms | 1ms | 2ms | 20 | 0 MiB | 0 MiB |',
      '| Indexing, below limit | strong | 0% | 3.5ms | 6.3ms | 11ms | 2ms | 3ms | 20 | 3 MiB | 3.5 MiB |',
      '| Indexing, below limit | eventual | 0% | 3.5ms | 6.3ms | 11ms | 2ms | 3ms | 20 | 3 MiB | 3.5 MiB |',
      '| Indexing, above limit | strong | 45% | 4.5ms | 8.3ms | 14ms | 3ms | 4ms | 20 | 9 MiB | 10 MiB |',
      '| Indexing, above limit | eventual | 0% | 4.5ms | 8.3ms | 14ms | 3ms | 4ms | 20 | 9 MiB | 10 MiB |',
      '',
    ]);
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
