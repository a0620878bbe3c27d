// The web dashboard's data: every sample it charts, aggregated per period (K6_WEB_DASHBOARD_PERIOD) and per scenario
// (the `scenario` tag; "" is the whole test). A period's values are exact (all of its samples, percentiles by k6's
// interpolation); once the samples are two periods past it, it is reduced to its figures and its samples dropped, so
// memory grows with the number of periods, not of samples. A sample later than that (rare: VU batches flush every
// few hundred ms) counts in the oldest period still open. Replayed samples (bench merge reads one stream after
// another) arrive out of order: there every period stays open until the end.
import type { Series } from '../../metrics/aggregator';
import type { Metric } from '../../metrics/registry';
import { type AnySink, CounterSink, createSink, GaugeSink, RateSink } from '../../metrics/sinks';

/** One metric of one scenario in one period. */
export type PeriodFigures =
  | { type: 'counter'; sum: number }
  | { type: 'gauge'; last: number; max: number }
  | { type: 'rate'; trues: number; samples: number }
  | {
      type: 'trend';
      count: number;
      avg: number;
      p50: number;
      p90: number;
      p95: number;
      p99: number;
      max: number;
    };

export interface CheckTotal {
  scenario: string;
  name: string;
  passes: number;
  fails: number;
}

/** What the charts and tables are drawn from: plain data. */
export interface DashboardData {
  periodS: number;
  /** Scenarios in order of their first sample. */
  scenarios: string[];
  /** Custom trends (the script's own Trend metrics), in order of their first sample; `time`: values are ms. */
  trends: { name: string; time: boolean }[];
  /** periods[i] covers [i·period, (i+1)·period) after the first sample; key `${metric}\u0000${scenario}`. */
  periods: Map<string, PeriodFigures>[];
  /** Failed requests per period by status (`http_req_failed` samples that are true, by their `status` tag). */
  failedByStatus: Map<string, number>[];
  checks: CheckTotal[];
}

/** Built-in metrics the dashboard charts; every custom Trend is charted too. */
const CHARTED = new Set([
  'http_reqs',
  'http_req_duration',
  'http_req_failed',
  'iterations',
  'dropped_iterations',
  'vus',
  'vus_max',
  'checks',
]);

export function seriesKey(metric: string, scenario: string): string {
  return `${metric}\u0000${scenario}`;
}

function figures(sink: AnySink): PeriodFigures {
  if (sink instanceof CounterSink) return { type: 'counter', sum: sink.count };
  if (sink instanceof GaugeSink) return { type: 'gauge', last: sink.value, max: sink.max };
  if (sink instanceof RateSink) return { type: 'rate', trues: sink.trues, samples: sink.samples };
  return {
    type: 'trend',
    count: sink.samples,
    avg: sink.avg,
    p50: sink.percentile(50),
    p90: sink.percentile(90),
    p95: sink.percentile(95),
    p99: sink.percentile(99),
    max: sink.max,
  };
}

interface OpenPeriod {
  sinks: Map<string, AnySink>;
  failed: Map<string, number>;
}

export class DashboardRecorder {
  private origin: number | undefined;
  /** Reduced periods, [0, open.offset). */
  private readonly settled: Map<string, PeriodFigures>[] = [];
  private readonly settledFailed: Map<string, number>[] = [];
  /** Periods still taking samples: index settled.length + i. */
  private readonly open: OpenPeriod[] = [];
  private readonly scenarios: string[] = [];
  private readonly scenarioSet = new Set<string>();
  private readonly trends: { name: string; time: boolean }[] = [];
  private readonly checks = new Map<string, CheckTotal>();
  /** Without settling: every period by its index from the first sample (negative: earlier samples came later). */
  private readonly unsettled = new Map<number, OpenPeriod>();

  /** `settle` false: samples arrive in any order (a replay), so no period is reduced before the end. */
  constructor(
    private readonly periodMs: number,
    private readonly settles = true,
  ) {}

  write(metric: Metric, time: number, value: number, series: Series): void {
    const custom = !metric.builtin;
    if (!CHARTED.has(metric.name) && !(custom && metric.type === 'trend')) return;
    this.origin ??= time;
    const scenario = series.tags.scenario ?? '';
    if (scenario !== '' && !this.scenarioSet.has(scenario)) {
      this.scenarioSet.add(scenario);
      this.scenarios.push(scenario);
    }
    if (custom && !this.trends.some((t) => t.name === metric.name))
      this.trends.push({ name: metric.name, time: metric.contains === 'time' });
    const index = Math.floor((time - this.origin) / this.periodMs);
    const period = this.settles ? this.periodAt(Math.max(0, index)) : this.unsettledAt(index);
    this.add(period, metric, '', value);
    if (scenario !== '') this.add(period, metric, scenario, value);
    if (metric.name === 'http_req_failed' && value !== 0) {
      const status = series.tags.status ?? '';
      period.failed.set(status, (period.failed.get(status) ?? 0) + 1);
    }
    if (metric.name === 'checks') this.countCheck(scenario, series.tags.check ?? '', value !== 0);
  }

  private add(period: OpenPeriod, metric: Metric, scenario: string, value: number): void {
    const key = seriesKey(metric.name, scenario);
    let sink = period.sinks.get(key);
    if (!sink) {
      sink = createSink(metric.type);
      period.sinks.set(key, sink);
    }
    sink.add(value);
  }

  private countCheck(scenario: string, name: string, passed: boolean): void {
    const key = `${scenario}\u0000${name}`;
    let c = this.checks.get(key);
    if (!c) {
      c = { scenario, name, passes: 0, fails: 0 };
      this.checks.set(key, c);
    }
    if (passed) c.passes++;
    else c.fails++;
  }

  /** The open period with index `i`, opening the ones up to it and settling those two periods behind. */
  private periodAt(i: number): OpenPeriod {
    const first = this.settled.length;
    if (i < first) return this.open[0] ?? this.periodAt(first);
    while (first + this.open.length <= i) this.open.push(emptyPeriod());
    while (this.open.length > 0 && this.settled.length < i - 1) this.settle();
    return this.open[i - this.settled.length];
  }

  private unsettledAt(i: number): OpenPeriod {
    let p = this.unsettled.get(i);
    if (!p) {
      p = emptyPeriod();
      this.unsettled.set(i, p);
    }
    return p;
  }

  private settle(): void {
    const p = this.open.shift();
    if (!p) return;
    this.settled.push(reduce(p));
    this.settledFailed.push(p.failed);
  }

  /** Everything so far (the open periods reduced as they stand). */
  data(): DashboardData {
    let open = this.open;
    if (!this.settles && this.unsettled.size > 0) {
      const indices = [...this.unsettled.keys()];
      const first = Math.min(...indices);
      const count = Math.max(...indices) - first + 1;
      open = Array.from({ length: count }, (_, i) => this.unsettled.get(first + i) ?? emptyPeriod());
    }
    return {
      periodS: this.periodMs / 1000,
      scenarios: [...this.scenarios],
      trends: this.trends.map((t) => ({ ...t })),
      periods: [...this.settled, ...open.map(reduce)],
      failedByStatus: [...this.settledFailed, ...open.map((p) => new Map(p.failed))],
      checks: [...this.checks.values()].map((c) => ({ ...c })),
    };
  }
}

function emptyPeriod(): OpenPeriod {
  return { sinks: new Map(), failed: new Map() };
}

function reduce(p: OpenPeriod): Map<string, PeriodFigures> {
  const out = new Map<string, PeriodFigures>();
  for (const [key, sink] of p.sinks) out.set(key, figures(sink));
  return out;
}
