// Experiment 3's charts as chart specs (core/chart-spec.ts) the report draws: each probe's lag against the backlog
// at its acknowledgement (one point per series bucket and read kind), with the tail and the limit marked; and the
// sampled queries' client p99 per band. Pure.
import { type ChartSet, type ChartSpec, mib, ms3, type Point, type Series } from '../../core/chart-spec';
import { BANDS } from './bands';
import { READS, readConsistency } from './probe';
import type { FreshnessResult } from './results/json';

function lagChart(r: FreshnessResult): ChartSpec {
  const series: Series[] = READS.map((read) => ({
    name: read.replace('_', ' by '),
    kind: 'scatter',
    color: readConsistency(read) === 'strong' ? 0 : 1,
    points: r.points.t_s.flatMap((_, i): Point[] => {
      const backlog = r.points.backlog_bytes[i];
      const lag = r.points.lag_ms[read][i];
      return backlog === null || lag === null ? [] : [[mib(backlog), ms3(lag / 1000)]];
    }),
  }));
  return {
    id: 'lag',
    title: 'Visibility lag against the backlog at the write',
    subtitle: `each point: the probes acknowledged in one ${r.points.t_s.length > 1 ? 'bucket' : 'run'}, their longest lag; strong in one hue, eventual in another`,
    x: { title: 'index.unindexed_bytes at the ack (MiB)', kind: 'value', unit: 'MiB', min: 0 },
    y: { title: 'lag to the first read that saw it (s)', kind: 'value', unit: 's', min: 0 },
    series,
    lines: [
      { axis: 'x', value: mib(r.limits.tail_limit_bytes), label: 'eventual tail limit' },
      { axis: 'x', value: mib(r.limits.backlog_limit_bytes), label: 'unindexed limit' },
    ],
  };
}

function latencyChart(r: FreshnessResult): ChartSpec {
  return {
    id: 'latency',
    title: 'Client p99 of the sampled ANN queries per band',
    subtitle: 'successful queries; strong above the limit are refused (429)',
    x: { title: 'band', kind: 'category', categories: [...BANDS] },
    y: { title: 'client p99 (ms)', kind: 'value', unit: 'ms', min: 0 },
    series: (['strong', 'eventual'] as const).map((consistency, i) => ({
      name: consistency,
      kind: 'bar',
      color: i,
      points: r.queries
        .filter((q) => q.consistency === consistency)
        .map((q): Point => [q.band, ms3(q.client_ms.p99)]),
    })),
  };
}

export function freshnessCharts(r: FreshnessResult): ChartSet {
  return { charts: [lagChart(r), latencyChart(r)], notes: [] };
}
