import { describe, expect, it } from 'vitest';
import { metricValue, runOutcome } from './summary-data';

describe('runOutcome', () => {
  it('counts dropped iterations and lists each failed expression in summary order', () => {
    const outcome = runOutcome({
      metrics: {
        dropped_iterations: {
          type: 'counter',
          values: { count: 3 },
          thresholds: { 'count==0': { ok: false } },
        },
        'http_reqs{shape:ann_only}': {
          type: 'counter',
          values: { count: 0 },
          thresholds: { 'count>0': { ok: false }, 'count>=0': { ok: true } },
        },
      },
    });
    expect(outcome).toEqual({
      dropped_iterations: 3,
      thresholds: {
        evaluated: true,
        passed: false,
        failed: [
          { metric: 'dropped_iterations', expression: 'count==0' },
          { metric: 'http_reqs{shape:ann_only}', expression: 'count>0' },
        ],
      },
    });
  });

  it('passes with no thresholds and no dropped_iterations metric', () => {
    expect(runOutcome({ metrics: {} })).toEqual({
      dropped_iterations: 0,
      thresholds: { evaluated: true, passed: true, failed: [] },
    });
  });

  it('leaves the thresholds of an aborted run unevaluated', () => {
    const data = {
      metrics: {
        x: { type: 'counter' as const, values: { count: 0 }, thresholds: { 'count>0': { ok: false } } },
      },
    };
    expect(runOutcome(data, true)).toEqual({
      dropped_iterations: 0,
      thresholds: { evaluated: false, passed: null, failed: [] },
    });
  });
});

describe('metricValue', () => {
  it('reads one statistic and treats absent metrics, absent statistics and NaN as null', () => {
    const data = { metrics: { m: { type: 'trend' as const, values: { med: 2, 'p(99)': Number.NaN } } } };
    expect(metricValue(data, 'm', 'med')).toBe(2);
    expect(metricValue(data, 'm', 'p(99)')).toBeNull();
    expect(metricValue(data, 'm', 'max')).toBeNull();
    expect(metricValue(data, 'other', 'med')).toBeNull();
  });
});
