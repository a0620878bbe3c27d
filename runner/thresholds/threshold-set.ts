// The run's thresholds: parsed and checked against the metric registry at start-up (problems -> exit 104),
// then evaluated against live sinks every 2 s and once at the end.
import type { Metric, MetricRegistry, Submetric } from '../metrics/registry';
import type { AnySink } from '../metrics/sinks';
import { CounterSink, GaugeSink, RateSink, TrendSink } from '../metrics/sinks';
import { passes, shouldAbort } from './evaluate';
import { parseDefinition, parseThresholdKey, type ThresholdExpression } from './parse';

export interface Threshold {
  /** The key as written (metric or sub-metric name). */
  key: string;
  metric: Metric;
  submetric?: Submetric;
  expressions: Array<ThresholdExpression & { ok: boolean; lastValue: number }>;
}

/** The value an aggregation names, read off a sink. NaN when it cannot be computed. */
export function aggregate(
  sink: AnySink,
  aggregation: string,
  percentile: number | undefined,
  elapsedMs: number,
): number {
  if (sink instanceof TrendSink) {
    if (percentile !== undefined) return sink.percentile(percentile);
    switch (aggregation) {
      case 'avg':
        return sink.avg;
      case 'min':
        return sink.samples > 0 ? sink.min : 0;
      case 'max':
        return sink.samples > 0 ? sink.max : 0;
      case 'med':
        return sink.percentile(50);
      case 'count':
        return sink.samples;
    }
  } else if (sink instanceof CounterSink) {
    return aggregation === 'count' ? sink.count : sink.rate(elapsedMs);
  } else if (sink instanceof GaugeSink) {
    return sink.value;
  } else if (sink instanceof RateSink) {
    return sink.rate;
  }
  return Number.NaN;
}

/** Parses options.thresholds; returns every problem (each names the key) instead of stopping at the first. */
export function buildThresholds(
  raw: unknown,
  registry: MetricRegistry,
): { thresholds: Threshold[]; problems: string[]; warnings: string[] } {
  const thresholds: Threshold[] = [];
  const problems: string[] = [];
  const warnings: string[] = [];
  if (raw === undefined || raw === null) return { thresholds, problems, warnings };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push('thresholds must be an object of metric name -> list of expressions');
    return { thresholds, problems, warnings };
  }
  for (const [key, defs] of Object.entries(raw as Record<string, unknown>)) {
    try {
      const parsed = parseThresholdKey(key);
      const metric = registry.get(parsed.metric);
      if (!metric) throw new Error(`no metric name "${parsed.metric}" found`);
      let submetric: Submetric | undefined;
      if (parsed.tags) {
        if ('vu' in parsed.tags || 'iter' in parsed.tags)
          warnings.push(
            `threshold ${key} selects on vu/iter, which are metadata, not tags: it will see no samples`,
          );
        submetric = registry.addSubmetric(metric, key, parsed.tags);
      }
      const list = Array.isArray(defs) ? defs : [defs];
      const expressions = list.map((d) => ({
        ...parseDefinition(d, metric.type),
        ok: true,
        lastValue: Number.NaN,
      }));
      thresholds.push({ key, metric, submetric, expressions });
    } catch (error) {
      problems.push(`invalid threshold defined on ${key}; reason: ${(error as Error).message}`);
    }
  }
  return { thresholds, problems, warnings };
}

export interface EvaluationResult {
  /** Metric names (parent names) with a failing expression, sorted. */
  failedMetrics: string[];
  /** True when a failing expression has abortOnFail (and its delay passed). */
  abort: boolean;
}

/**
 * Evaluates every threshold. `final` evaluates all; otherwise metrics without samples are skipped (k6's periodic
 * rule), keeping their previous result.
 */
export function evaluateThresholds(
  thresholds: Threshold[],
  elapsedMs: number,
  final: boolean,
): EvaluationResult {
  const failed = new Set<string>();
  let abort = false;
  for (const t of thresholds) {
    const sink = t.submetric ? t.submetric.sink : t.metric.sink;
    if (!final && sink.samples === 0) continue;
    for (const e of t.expressions) {
      const value = aggregate(sink, e.aggregation, e.percentile, elapsedMs);
      e.lastValue = value;
      e.ok = passes(e, value);
      if (!e.ok) {
        failed.add(t.metric.name);
        if (shouldAbort(e, e.ok, elapsedMs)) abort = true;
      }
    }
  }
  return { failedMetrics: [...failed].sort(), abort };
}
