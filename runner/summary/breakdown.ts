// `--summary-mode full`: the per-group and per-scenario sections (metrics and checks) of the text summary, built
// from the aggregator's breakdown sinks.
import type { Aggregator, CheckCount } from '../metrics/aggregator';
import type { Metric } from '../metrics/registry';
import type { AnySink } from '../metrics/sinks';
import { md5, type SummaryCheck, type SummaryMetric, sinkValues } from './data';

export interface SummarySection {
  title: string;
  metrics: Record<string, SummaryMetric>;
  checks: SummaryCheck[];
}

function metricsOf(
  sinks: Map<Metric, AnySink>,
  stats: readonly string[],
  elapsedMs: number,
): Record<string, SummaryMetric> {
  const out: Record<string, SummaryMetric> = {};
  for (const [metric, sink] of sinks) {
    if (sink.samples === 0) continue;
    out[metric.name] = {
      type: metric.type,
      contains: metric.contains,
      values: sinkValues(sink, stats, elapsedMs),
    };
  }
  return out;
}

function checksOf(prefix: string, counts: Map<string, CheckCount> | undefined): SummaryCheck[] {
  return [...(counts?.values() ?? [])].map((c) => ({
    name: c.name,
    path: `${prefix}::${c.name}`,
    id: md5(`${prefix}::${c.name}`),
    passes: c.passes,
    fails: c.fails,
  }));
}

export function breakdownSections(
  aggregator: Aggregator,
  stats: readonly string[],
  elapsedMs: number,
): SummarySection[] {
  const sections: SummarySection[] = [];
  for (const path of aggregator.groups) {
    const sinks = aggregator.breakdown.group.get(path);
    if (path === '' || !sinks) continue;
    sections.push({
      title: `GROUP: ${path.slice(2)}`,
      metrics: metricsOf(sinks, stats, elapsedMs),
      checks: checksOf(path, aggregator.checks.get(path)),
    });
  }
  for (const name of [...aggregator.breakdown.scenario.keys()].sort()) {
    sections.push({
      title: `SCENARIO: ${name}`,
      metrics: metricsOf(aggregator.breakdown.scenario.get(name) as Map<Metric, AnySink>, stats, elapsedMs),
      checks: checksOf('', aggregator.checksByScenario.get(name)),
    });
  }
  return sections;
}
