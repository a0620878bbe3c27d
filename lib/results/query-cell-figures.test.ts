import { describe, expect, it } from 'vitest';
import { queryKeys } from '../metric-names';
import { readQueryCell } from './query-cell-figures';
import type { SummaryData } from './summary-data';

const k = queryKeys({ shape: 'ann_only', selectivity: '100' });
const trend = (med: number) => ({
  type: 'trend' as const,
  values: { med, 'p(95)': med * 2, 'p(99)': med * 3, max: 9 },
});

describe('readQueryCell', () => {
  it('keeps latencies null when every query failed, but still reports the intended-start latency', () => {
    const data: SummaryData = {
      metrics: {
        [k.requests]: { type: 'counter', values: { count: 4 } },
        [k.failed]: { type: 'rate', values: { rate: 1, passes: 4, fails: 0 } },
        [k.errors('429')]: { type: 'counter', values: { count: 3 } },
        [k.errors('5xx')]: { type: 'counter', values: { count: 1 } },
        [k.errors('4xx')]: { type: 'counter', values: { count: 0 } },
        [k.clientOk]: trend(0),
        [k.fromIntended]: trend(7),
      },
    };
    const q = readQueryCell(data, k);
    expect(q).toMatchObject({
      requests: 4,
      errors: 4,
      error_rate: 1,
      errors_by_status: { '429': 3, '5xx': 1 },
      client_ms: { p50: null, p95: null, p99: null },
      from_intended_ms: { p50: 7, p99: 21 },
    });
    expect(q.trend(k.fromIntended, 'med')).toBeNull();
  });

  it('reads the trends of a cell with successful queries, NaN as missing', () => {
    const data: SummaryData = {
      metrics: {
        [k.requests]: { type: 'counter', values: { count: 10 } },
        [k.failed]: { type: 'rate', values: { rate: 0.1, passes: 1, fails: 9 } },
        [k.clientOk]: trend(2),
        [k.exhaustive]: { type: 'trend', values: { med: Number.NaN, max: 40 } },
      },
    };
    const q = readQueryCell(data, k);
    expect(q.error_rate).toBe(0.1);
    expect(q.errors_by_status).toEqual({});
    expect(q.client_ms).toEqual({ p50: 2, p95: 4, p99: 6 });
    expect(q.exhaustive_search_count).toEqual({ p50: null, max: 40 });
    expect(q.query_execution_ms).toEqual({ p50: null, p95: null });
  });
});
