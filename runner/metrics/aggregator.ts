// The main thread's sample sink: decodes batches from VU realms, feeds metric and sub-metric sinks, records the
// check/group tree for the summary, and forwards every sample to the configured outputs.

import type { Metric, MetricRegistry } from './registry';
import { matches } from './registry';
import type { SampleInput } from './sample';
import type { SampleBatch } from './sample-batch';
import { type AnySink, createSink } from './sinks';

/** One tag set as outputs see it; `cache` lets an output keep its own rendering of the tags (e.g. JSON text). */
export interface Series {
  tags: Record<string, string>;
  cache?: string;
}

export interface SampleOutput {
  write(
    metric: Metric,
    time: number,
    value: number,
    series: Series,
    metadata: Record<string, string> | undefined,
  ): void;
}

/** k6's suggested limit of distinct tag sets (time series) in one run. */
const SERIES_WARNING = 100_000;

export interface CheckCount {
  name: string;
  passes: number;
  fails: number;
}

interface SourceState {
  metrics: Metric[];
  series: Series[];
  metas: Array<Record<string, string>>;
  sinks: Map<number, AnySink[]>;
}

export class Aggregator {
  private sources = new Map<string, SourceState>();
  private localSeries = new Map<string, Series>();
  /** Group paths in order of first appearance ("" = root). */
  readonly groups: string[] = [''];
  private groupSet = new Set<string>(['']);
  /** group path -> check name -> counts, in order of first appearance. */
  readonly checks = new Map<string, Map<string, CheckCount>>();
  private readonly checksMetric: Metric;
  private readonly groupMetric: Metric;
  samples = 0;

  /**
   * Per-group and per-scenario copies of every metric (only for `--summary-mode full`, which shows them):
   * key "group" or "scenario" -> value -> metric -> sink.
   */
  readonly breakdown = {
    group: new Map<string, Map<Metric, AnySink>>(),
    scenario: new Map<string, Map<Metric, AnySink>>(),
  };
  /** scenario -> check name -> counts (full mode). */
  readonly checksByScenario = new Map<string, Map<string, CheckCount>>();

  /** Distinct tag sets seen across all realms (k6 warns past 100,000 time series). */
  private readonly seriesKeys = new Set<string>();
  private seriesWarned = false;
  /** Called once when the number of distinct tag sets passes SERIES_WARNING. */
  onTooManySeries: ((count: number) => void) | undefined;

  constructor(
    private readonly registry: MetricRegistry,
    private readonly outputs: SampleOutput[],
    private readonly withBreakdown = false,
  ) {
    this.checksMetric = registry.resolve('checks');
    this.groupMetric = registry.resolve('group_duration');
  }

  private source(id: string): SourceState {
    let s = this.sources.get(id);
    if (!s) {
      s = { metrics: [], series: [], metas: [], sinks: new Map() };
      this.sources.set(id, s);
    }
    return s;
  }

  /** Forgets a realm's interning tables (its worker ended). */
  dropSource(id: string): void {
    this.sources.delete(id);
  }

  ingest(sourceId: string, batch: SampleBatch): void {
    const src = this.source(sourceId);
    if (batch.definitions) {
      for (const [name, type, contains] of batch.definitions) {
        try {
          this.registry.define(name, type, contains);
        } catch {
          // A clash was already reported when init #0 defined the metric; samples go to the first definition.
        }
      }
    }
    if (batch.names) for (const [id, name] of batch.names) src.metrics[id] = this.registry.resolve(name);
    if (batch.tagSets) {
      for (const [id, tags] of batch.tagSets) {
        src.series[id] = { tags };
        this.countSeries(tags);
      }
    }
    if (batch.metas) for (const [id, meta] of batch.metas) src.metas[id] = meta;
    const { metricIds, tagIds, metaIds, times, values } = batch;
    for (let i = 0; i < batch.count; i++) {
      const mid = metricIds[i];
      const tid = tagIds[i];
      const key = mid * 1_048_576 + tid;
      const metric = src.metrics[mid];
      const series = src.series[tid];
      let sinks = src.sinks.get(key);
      if (!sinks) {
        sinks = this.sinksFor(metric, series);
        src.sinks.set(key, sinks);
      }
      this.record(
        metric,
        sinks,
        series,
        times[i],
        values[i],
        metaIds[i] >= 0 ? src.metas[metaIds[i]] : undefined,
      );
    }
  }

  /** Samples produced on the main thread (vus, vus_max, dropped_iterations, event-loop lag). */
  addLocal(sample: SampleInput): void {
    const metric = this.registry.resolve(sample.metric);
    const key = `${sample.metric}\u0000${JSON.stringify(sample.tags)}`;
    let series = this.localSeries.get(key);
    if (!series) {
      series = { tags: sample.tags };
      this.localSeries.set(key, series);
    }
    this.record(metric, this.sinksFor(metric, series), series, sample.time, sample.value, sample.metadata);
  }

  private countSeries(tags: Record<string, string>): void {
    if (this.seriesWarned) return;
    const keys = Object.keys(tags).sort();
    this.seriesKeys.add(keys.map((k) => `${k}\u0000${tags[k]}`).join('\u0001'));
    if (this.seriesKeys.size > SERIES_WARNING) {
      this.seriesWarned = true;
      this.seriesKeys.clear();
      this.onTooManySeries?.(SERIES_WARNING);
    }
  }

  private sinksFor(metric: Metric, series: Series): AnySink[] {
    const sinks: AnySink[] = [metric.sink];
    for (const sub of metric.submetrics) if (matches(sub.tags, series.tags)) sinks.push(sub.sink);
    if (this.withBreakdown) {
      const { group, scenario } = series.tags;
      if (group) sinks.push(this.breakdownSink('group', group, metric));
      if (scenario) sinks.push(this.breakdownSink('scenario', scenario, metric));
    }
    return sinks;
  }

  private breakdownSink(kind: 'group' | 'scenario', key: string, metric: Metric): AnySink {
    let byMetric = this.breakdown[kind].get(key);
    if (!byMetric) {
      byMetric = new Map();
      this.breakdown[kind].set(key, byMetric);
    }
    let sink = byMetric.get(metric);
    if (!sink) {
      sink = createSink(metric.type);
      byMetric.set(metric, sink);
    }
    return sink;
  }

  private record(
    metric: Metric,
    sinks: AnySink[],
    series: Series,
    time: number,
    value: number,
    meta: Record<string, string> | undefined,
  ): void {
    this.samples++;
    for (let j = 0; j < sinks.length; j++) sinks[j].add(value);
    if (metric === this.checksMetric) this.countCheck(series.tags, value);
    else if (metric === this.groupMetric) this.seeGroup(series.tags.group ?? '');
    for (let j = 0; j < this.outputs.length; j++) this.outputs[j].write(metric, time, value, series, meta);
  }

  private seeGroup(path: string): void {
    if (this.groupSet.has(path)) return;
    // Parents first, so the tree keeps first-appearance order top-down.
    const parts = path.split('::').slice(1);
    for (let i = 1; i <= parts.length; i++) {
      const p = `::${parts.slice(0, i).join('::')}`;
      if (!this.groupSet.has(p)) {
        this.groupSet.add(p);
        this.groups.push(p);
      }
    }
  }

  private countCheck(tags: Record<string, string>, value: number): void {
    if (this.withBreakdown && tags.scenario) {
      let byName = this.checksByScenario.get(tags.scenario);
      if (!byName) {
        byName = new Map();
        this.checksByScenario.set(tags.scenario, byName);
      }
      const c = byName.get(tags.check ?? '') ?? { name: tags.check ?? '', passes: 0, fails: 0 };
      byName.set(c.name, c);
      if (value !== 0) c.passes++;
      else c.fails++;
    }
    const group = tags.group ?? '';
    this.seeGroup(group);
    let byName = this.checks.get(group);
    if (!byName) {
      byName = new Map();
      this.checks.set(group, byName);
    }
    const name = tags.check ?? '';
    let c = byName.get(name);
    if (!c) {
      c = { name, passes: 0, fails: 0 };
      byName.set(name, c);
    }
    if (value !== 0) c.passes++;
    else c.fails++;
  }
}
