import { describe, expect, it } from 'vitest';
import type { SummaryData } from './data';
import { renderTextSummary } from './text';

const data: SummaryData = {
  root_group: {
    name: '',
    path: '',
    id: 'd41d8cd98f00b204e9800998ecf8427e',
    groups: [],
    checks: [
      { name: 'status is 200', path: '::status is 200', id: 'x', passes: 2, fails: 1 },
      { name: 'fast', path: '::fast', id: 'y', passes: 3, fails: 0 },
    ],
  },
  options: { summaryTrendStats: ['avg', 'p(95)'], summaryTimeUnit: '', noColor: true },
  state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 2000 },
  metrics: {
    http_req_duration: {
      type: 'trend',
      contains: 'time',
      values: { avg: 120.5, 'p(95)': 130.2 },
      thresholds: { 'p(95)<100': { ok: false } },
    },
    'http_req_duration{expected_response:true}': {
      type: 'trend',
      contains: 'time',
      values: { avg: 120.5, 'p(95)': 130.2 },
    },
    http_req_blocked: { type: 'trend', contains: 'time', values: { avg: 1, 'p(95)': 1 } },
    http_reqs: { type: 'counter', contains: 'default', values: { count: 3, rate: 1.5 } },
    http_req_failed: { type: 'rate', contains: 'default', values: { rate: 1 / 3, passes: 1, fails: 2 } },
    server_ms: { type: 'trend', contains: 'time', values: { avg: 5, 'p(95)': 9 } },
    data_received: { type: 'counter', contains: 'data', values: { count: 519_000, rate: 259_500 } },
    vus: { type: 'gauge', contains: 'default', values: { value: 1, min: 1, max: 2 } },
    checks: { type: 'rate', contains: 'default', values: { rate: 5 / 6, passes: 5, fails: 1 } },
  },
};

describe('renderTextSummary', () => {
  const text = renderTextSummary(data);
  const lines = text.split('\n');

  it('lists thresholds with the value of the aggregation they name', () => {
    expect(lines.slice(0, 5)).toEqual([
      '  █ THRESHOLDS',
      '',
      '    http_req_duration',
      "    ✗ 'p(95)<100' p(95)=130.19ms",
      '',
    ]);
  });

  it('prints the checks block, then categories in k6 order', () => {
    const headings = lines.filter((l) => /^ {4}[A-Z]+$/.test(l)).map((l) => l.trim());
    expect(headings).toEqual(['CUSTOM', 'HTTP', 'EXECUTION', 'NETWORK']);
    expect(lines.some((l) => /^ {4}checks_total\.+: 6 +3\/s$/.test(l))).toBe(true);
    expect(lines.some((l) => /^ {4}checks_succeeded\.+: 83\.33% +5 out of 6$/.test(l))).toBe(true);
    expect(lines).toContain('    ✗ status is 200');
    expect(lines).toContain('      ↳  66% — ✓ 2 / ✗ 1');
    expect(lines).toContain('    ✓ fast');
  });

  it('omits the timing breakdown and raw checks in compact mode, and nests sub-metrics', () => {
    expect(text).not.toContain('http_req_blocked');
    expect(lines.some((l) => l.startsWith('    checks.'))).toBe(false);
    const i = lines.findIndex((l) => l.startsWith('    http_req_duration.'));
    expect(lines[i + 1]).toMatch(/^ {6}\{ expected_response:true \}\.+: avg=120\.5ms +p\(95\)=130\.19ms$/);
    expect(lines.some((l) => /^ {4}http_req_failed\.+: 33\.33% +1 out of 3$/.test(l))).toBe(true);
    expect(lines.some((l) => /^ {4}data_received\.+: 519 kB +259 kB\/s$/.test(l))).toBe(true);
    expect(lines.some((l) => /^ {4}vus\.+: 1 +min=1 +max=2$/.test(l))).toBe(true);
  });

  it('shows the timing breakdown and the group/scenario sections in full mode', () => {
    const full = renderTextSummary(data, {
      mode: 'full',
      sections: [
        {
          title: 'SCENARIO: writers',
          metrics: { iterations: { type: 'counter', contains: 'default', values: { count: 6, rate: 3 } } },
          checks: [{ name: 'ok', path: '::ok', id: 'i', passes: 1, fails: 0 }],
        },
      ],
    });
    expect(full).toContain('http_req_blocked');
    const lines = full.split('\n');
    const at = lines.indexOf('  █ SCENARIO: writers');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1).find((l) => l.startsWith('    iterations'))).toMatch(/: 6 +3\/s$/);
    expect(lines.slice(at + 1)).toContain('    ✓ ok');
    expect(
      renderTextSummary(data, { sections: [{ title: 'SCENARIO: x', metrics: {}, checks: [] }] }),
    ).not.toContain('SCENARIO');
  });
});
