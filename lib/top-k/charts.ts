// The top-k experiment's chart: client latency percentiles against top_k, as chart specs (core/chart-spec.ts) the
// report draws. Pure.
import { type ChartSet, type ChartSpec, ms3, type Point } from '../../core/chart-spec';
import type { TopKResult } from './results/json';

export function topKCharts(r: TopKResult): ChartSet {
  const percentiles = ['p50', 'p95', 'p99'] as const;
  const chart: ChartSpec = {
    id: 'latency',
    title: 'Client latency by top_k',
    subtitle: `successful ${r.cells[0]?.consistency ?? ''} ANN queries, ${r.rows} indexed rows`,
    x: { title: 'top_k', kind: 'log' },
    y: { title: 'client latency (ms)', kind: 'value', unit: 'ms', min: 0 },
    series: percentiles.map((p, i) => ({
      name: `client ${p}`,
      kind: 'line',
      color: i,
      points: r.cells.map((c): Point => [c.top_k, ms3(c.client_ms[p])]),
    })),
  };
  return { charts: [chart], notes: [] };
}
