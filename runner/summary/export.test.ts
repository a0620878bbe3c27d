import { describe, expect, it } from 'vitest';
import type { SummaryData } from './data';
import { renderSummaryExport } from './export';

describe('renderSummaryExport', () => {
  it('writes the old format: rate -> value, thresholds true when failed, checks keyed by name', () => {
    const data: SummaryData = {
      root_group: {
        name: '',
        path: '',
        id: 'r',
        groups: [{ name: 'g', path: '::g', id: 'gid', groups: [], checks: [] }],
        checks: [{ name: 'ok', path: '::ok', id: 'c', passes: 10, fails: 0 }],
      },
      options: { summaryTrendStats: [], summaryTimeUnit: '', noColor: true },
      state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 1 },
      metrics: {
        http_req_failed: { type: 'rate', contains: 'default', values: { rate: 0, passes: 0, fails: 10 } },
        http_req_duration: {
          type: 'trend',
          contains: 'time',
          values: { avg: 1 },
          thresholds: { 'p(95)<500': { ok: true }, 'avg<0': { ok: false } },
        },
      },
    };
    const out = JSON.parse(renderSummaryExport(data));
    expect(out.metrics.http_req_failed).toEqual({ passes: 0, fails: 10, value: 0 });
    expect(out.metrics.http_req_duration.thresholds).toEqual({ 'p(95)<500': false, 'avg<0': true });
    expect(out.root_group.checks.ok).toEqual({ name: 'ok', path: '::ok', id: 'c', passes: 10, fails: 0 });
    expect(Object.keys(out.root_group.groups)).toEqual(['g']);
    expect(renderSummaryExport(data)).toContain('\n    "root_group"');
  });
});
