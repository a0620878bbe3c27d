import { describe, expect, it } from 'vitest';
import { Aggregator } from '../metrics/aggregator';
import { MetricRegistry } from '../metrics/registry';
import type { CounterSink, RateSink, TrendSink } from '../metrics/sinks';
import { JsonSampleReader, parseJsonTime } from './json-samples';
import { mergeSummaryExports, type SummaryExport } from './summary-exports';

/** A --out json stream of one instance: Metric lines, then its points (values in ms for time metrics). */
function stream(points: Array<[string, number, Record<string, string>?]>, t0: number): string[] {
  const defs: Record<string, [string, string]> = {
    http_req_duration: ['trend', 'time'],
    http_reqs: ['counter', 'default'],
    checks: ['rate', 'default'],
    write_rows: ['counter', 'default'],
  };
  const lines: string[] = [];
  const seen = new Set<string>();
  points.forEach(([metric, value, tags], i) => {
    if (!seen.has(metric)) {
      seen.add(metric);
      const [type, contains] = defs[metric];
      lines.push(
        JSON.stringify({
          type: 'Metric',
          data: { name: metric, type, contains, thresholds: [], submetrics: null },
          metric,
        }),
      );
    }
    const time = new Date(t0 + i).toISOString();
    lines.push(JSON.stringify({ metric, type: 'Point', data: { time, value, tags: tags ?? {} } }));
  });
  return lines;
}

function merged(streams: string[][]): MetricRegistry {
  const registry = new MetricRegistry();
  const aggregator = new Aggregator(registry, []);
  streams.forEach((lines, i) => {
    const reader = new JsonSampleReader(registry, (s) => aggregator.addLocal(s), `instance ${i}`);
    for (const l of lines) reader.line(l);
  });
  return registry;
}

function exactPercentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const idx = (p / 100) * (s.length - 1);
  return s[Math.floor(idx)] + (s[Math.ceil(idx)] - s[Math.floor(idx)]) * (idx - Math.floor(idx));
}

describe('merging --out json streams', () => {
  it('gives exact percentiles of the union of samples and summed counters', () => {
    // Three instances with different latency distributions: percentiles of the union, not of the parts.
    const latencies = [
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      [50, 60, 70],
      [100, 200, 300, 400, 500, 600, 700, 800],
    ];
    const streams = latencies.map((ls, i) =>
      stream(
        ls.flatMap(
          (v): Array<[string, number, Record<string, string>?]> => [
            ['http_req_duration', v, { name: 'q' }],
            ['http_reqs', 1, { name: 'q' }],
            ['checks', v < 500 ? 1 : 0, { check: 'fast' }],
            ['write_rows', 256],
          ],
        ),
        Date.UTC(2026, 0, 1) + i * 10_000,
      ),
    );
    const registry = merged(streams);
    const all = latencies.flat();
    const trend = registry.resolve('http_req_duration').sink as TrendSink;
    for (const p of [50, 90, 95, 99]) expect(trend.percentile(p)).toBeCloseTo(exactPercentile(all, p), 9);
    expect(trend.percentile(50)).toBe(50); // the parts' medians are 5.5, 60 and 450
    expect((registry.resolve('http_reqs').sink as CounterSink).count).toBe(21);
    expect((registry.resolve('write_rows').sink as CounterSink).count).toBe(21 * 256);
    const checks = registry.resolve('checks').sink as RateSink;
    expect([checks.trues, checks.samples]).toEqual([17, 21]);
  });

  it('keeps sub-millisecond times and names a line that is not JSON', () => {
    expect(parseJsonTime('2026-01-01T00:00:00.000123456Z') - Date.UTC(2026, 0, 1)).toBeCloseTo(0.123456, 3);
    expect(parseJsonTime('2026-01-01T01:00:00.5+01:00')).toBe(Date.UTC(2026, 0, 1) + 500);
    const reader = new JsonSampleReader(new MetricRegistry(), () => {}, 'runner-2.json');
    reader.line('');
    expect(() => reader.line('time="x" level=info')).toThrow('runner-2.json:2: not a JSON line');
  });
});

describe('merging summary exports', () => {
  const part = (count: number, avg: number, p95: number, passes: number, fails: number): SummaryExport => ({
    root_group: {
      name: '',
      path: '',
      id: 'root',
      groups: {},
      checks: { ok: { name: 'ok', path: '::ok', id: 'c', passes, fails } },
    },
    metrics: {
      http_reqs: { count, rate: count / 10 },
      http_req_duration: {
        avg,
        min: avg / 2,
        med: avg,
        max: avg * 2,
        'p(95)': p95,
        count,
        thresholds: { 'p(95)<100': p95 >= 100 },
      },
      checks: { passes, fails, value: passes / (passes + fails) },
      vus: { value: 2, min: 0, max: 3 },
    },
  });

  it('merges what aggregates allow exactly and names what it leaves out', () => {
    const { export: e, notes } = mergeSummaryExports([part(10, 20, 50, 9, 1), part(30, 40, 150, 27, 3)]);
    expect(e.metrics.http_reqs).toEqual({ count: 40, rate: 4 });
    expect(e.metrics.http_req_duration).toEqual({
      min: 10,
      max: 80,
      count: 40,
      avg: 35,
      thresholds: { 'p(95)<100': true },
    });
    expect(e.metrics.checks).toEqual({ passes: 36, fails: 4, value: 0.9 });
    expect(e.metrics.vus).toEqual({ value: 4, min: 0, max: 6 });
    expect(e.root_group.checks.ok).toMatchObject({ passes: 36, fails: 4 });
    expect(notes).toContain('http_req_duration: med, p(95) left out (not mergeable from aggregates)');
  });
});
