import { describe, expect, it } from 'vitest';
import {
  counts,
  csvRows,
  type DefinitionRun,
  failure,
  loggedErrors,
  renderReport,
} from './tpuf-benchmark-report';

const CSV =
  'workload,namespace,size,cache_temperature,client_duration_ms,server_duration_ms,exhaustive_count\n';
const row = 'ann,ns,2000,hot,16,3,0\n';

const run = (over: Partial<DefinitionRun>): DefinitionRun => ({
  definition: 'website/vector-10m-hot.toml',
  exitCode: 0,
  seconds: 31.4,
  output: '21:04:17 [done] results written to: /tmp/o\n',
  queriesCsv: CSV + row.repeat(59),
  ...over,
});

describe('counting', () => {
  it('reads answered queries from queries.csv, without its header', () => {
    expect(csvRows(CSV + row + row)).toBe(2);
    expect(csvRows(CSV)).toBe(0);
    expect(csvRows(undefined)).toBe(0);
  });

  it('reads failed requests from the logged errors, queries and upserts apart', () => {
    const output = [
      '21:04:13 [benchmark] error: error querying namespace try_0: failed to query namespace: 500',
      '21:04:14 [benchmark] error: error upserting documents to namespace try_0: 429',
      '21:04:15 [benchmark] [ann] queries: error: not a logged error',
      '21:04:17 [done] error: failed to stop reporter: x',
    ].join('\n');
    expect(loggedErrors(output)).toHaveLength(3);
    expect(counts(run({ output }))).toEqual({ answered: 59, queryErrors: 1, requestErrors: 2 });
  });

  it("names a failure by the tool's final Error line, else its first logged error, else the time limit", () => {
    const output = '21:04:13 [setup] error: one\nError: failed sanity check: upserting documents: 400\n';
    expect(failure(run({ exitCode: 1, output }))).toBe(
      'Error: failed sanity check: upserting documents: 400',
    );
    expect(failure(run({ output: '21:04:13 [benchmark] error: error querying namespace a: b\n' }))).toBe(
      'error querying namespace a: b',
    );
    expect(failure(run({ exitCode: null }))).toBe('killed at the time limit');
  });
});

describe('renderReport', () => {
  it('gives one row per definition and the totals', () => {
    const report = renderReport(
      [
        run({}),
        run({
          definition: 'text|prefix.toml',
          exitCode: 1,
          seconds: 2,
          output: 'Error: parsing definition: bad',
          queriesCsv: undefined,
        }),
      ],
      'make try-tpuf-benchmark TPUF_BENCHMARK=/tmp/tpufbench TPUF_BENCHMARK_DEFS=/tmp/defs',
    );
    expect(report).toContain(
      '`make try-tpuf-benchmark TPUF_BENCHMARK=/tmp/tpufbench TPUF_BENCHMARK_DEFS=/tmp/defs`',
    );
    expect(report).toContain('| website/vector-10m-hot.toml | 0 | 59 | 0 | 31 |  |');
    expect(report).toContain('| text\\|prefix.toml | 1 | 0 | 0 | 2 | Error: parsing definition: bad |');
    expect(report).toContain('| **total: 1 of 2 exited 0** | | **59** | **0** | **33** | |');
  });
});
