// The handleSummary(data) shape (k6's default "legacy" data model) and its builder from the run's aggregates.
import { createHash } from 'node:crypto';
import type { Aggregator } from '../metrics/aggregator';
import type { Metric, MetricRegistry } from '../metrics/registry';
import type { AnySink, MetricType, ValueType } from '../metrics/sinks';
import { CounterSink, GaugeSink, RateSink, TrendSink } from '../metrics/sinks';
import type { Threshold } from '../thresholds/threshold-set';
import { aggregate } from '../thresholds/threshold-set';

export interface SummaryCheck {
  name: string;
  path: string;
  id: string;
  passes: number;
  fails: number;
}

export interface SummaryGroup {
  name: string;
  path: string;
  id: string;
  groups: SummaryGroup[];
  checks: SummaryCheck[];
}

export interface SummaryMetric {
  type: MetricType;
  contains: ValueType;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

export interface SummaryData {
  root_group: SummaryGroup;
  options: { summaryTrendStats: string[]; summaryTimeUnit: string; noColor: boolean };
  state: { isStdOutTTY: boolean; isStdErrTTY: boolean; testRunDurationMs: number };
  metrics: Record<string, SummaryMetric>;
  setup_data?: unknown;
}

export function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

function trendValues(sink: TrendSink, stats: readonly string[]): Record<string, number> {
  const values: Record<string, number> = {};
  for (const stat of stats) {
    const p = /^p\((\d+(\.\d+)?)\)$/.exec(stat);
    values[stat] = p ? sink.percentile(Number(p[1])) : aggregate(sink, stat, undefined, 0);
  }
  return values;
}

/** `values` of one sink as handleSummary sees them. */
export function sinkValues(
  sink: AnySink,
  stats: readonly string[],
  elapsedMs: number,
): Record<string, number> {
  if (sink instanceof TrendSink) return trendValues(sink, stats);
  if (sink instanceof CounterSink)
    return { count: sink.count, rate: elapsedMs > 0 ? sink.count / (elapsedMs / 1000) : 0 };
  if (sink instanceof GaugeSink)
    return { value: sink.value, min: sink.samples ? sink.min : 0, max: sink.samples ? sink.max : 0 };
  if (sink instanceof RateSink)
    return { rate: sink.samples ? sink.rate : 0, passes: sink.trues, fails: sink.samples - sink.trues };
  return {};
}

export interface SummaryInput {
  registry: MetricRegistry;
  aggregator: Aggregator;
  thresholds: Threshold[];
  trendStats: readonly string[];
  timeUnit: string;
  noColor: boolean;
  isStdOutTTY: boolean;
  isStdErrTTY: boolean;
  testRunDurationMs: number;
  setupData: unknown;
}

function groupTree(aggregator: Aggregator): SummaryGroup {
  const byPath = new Map<string, SummaryGroup>();
  for (const path of aggregator.groups) {
    const name = path === '' ? '' : path.slice(path.lastIndexOf('::') + 2);
    const checks = [...(aggregator.checks.get(path)?.values() ?? [])].map((c) => {
      const p = `${path}::${c.name}`;
      return { name: c.name, path: p, id: md5(p), passes: c.passes, fails: c.fails };
    });
    const group: SummaryGroup = { name, path, id: md5(path), groups: [], checks };
    byPath.set(path, group);
    if (path !== '') {
      const parent = byPath.get(path.slice(0, path.lastIndexOf('::'))) ?? byPath.get('');
      parent?.groups.push(group);
    }
  }
  return byPath.get('') as SummaryGroup;
}

export function buildSummaryData(input: SummaryInput): SummaryData {
  const metrics: Record<string, SummaryMetric> = {};
  const thresholdsByKey = new Map<string, Threshold>();
  for (const t of input.thresholds) thresholdsByKey.set(t.key, t);
  const add = (key: string, metric: Metric, sink: AnySink) => {
    const t = thresholdsByKey.get(key);
    if (sink.samples === 0 && !t) return;
    const entry: SummaryMetric = {
      type: metric.type,
      contains: metric.contains,
      values: sinkValues(sink, input.trendStats, input.testRunDurationMs),
    };
    if (t) entry.thresholds = Object.fromEntries(t.expressions.map((e) => [e.source, { ok: e.ok }]));
    metrics[key] = entry;
  };
  for (const metric of input.registry.metrics.values()) {
    add(metric.name, metric, metric.sink);
    for (const sub of metric.submetrics) add(sub.name, metric, sub.sink);
  }
  const data: SummaryData = {
    root_group: groupTree(input.aggregator),
    options: {
      summaryTrendStats: [...input.trendStats],
      summaryTimeUnit: input.timeUnit,
      noColor: input.noColor,
    },
    state: {
      isStdOutTTY: input.isStdOutTTY,
      isStdErrTTY: input.isStdErrTTY,
      testRunDurationMs: input.testRunDurationMs,
    },
    metrics,
  };
  if (input.setupData !== undefined) data.setup_data = input.setupData;
  return data;
}
