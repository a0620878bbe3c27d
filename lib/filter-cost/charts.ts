// Experiment 2's charts from its result JSON: p95 against selectivity (log axis) per shape and consistency, the
// headline (filtered p95 at 1 % over the ann_only baseline, per configuration), ingest throughput per configuration
// with the band between the head and tail baselines, and every configuration's backlog drain curve. The published
// figures are reference marks where the study published a table. Pure.
import {
  type ChartSet,
  type ChartSpec,
  mib,
  ms3,
  type Point,
  type Series,
  withoutEmptySeries,
} from '../../core/chart-spec';
import type { Consistency } from '../turbopuffer-wire';
import { CONSISTENCIES } from './cells';
import { PUBLISHED_HEADLINE, PUBLISHED_SWEEP } from './published';
import type { FilterCostCell } from './results/cells';
import type { FilterCostResult } from './results/json';
import { baselineP95, findCell } from './results/markdown';

/** A result as the report reads it (the series is optional: results from before it have none). */
export type FilterCostReportInput = Omit<FilterCostResult, 'series'> & {
  series?: FilterCostResult['series'];
};

const SHAPE_COLOR: Record<string, number> = { ann_filtered: 0, filter_ordered: 3 };

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Published client times include a network round trip and local ones do not: on another axis then. */
function publishedAxis(r: FilterCostReportInput): 'y' | 'y2' {
  return r.target.kind === 'turbopuffer' ? 'y' : 'y2';
}

function interval(cell: FilterCostCell | undefined, scale = 1): [number | null, number | null] | null {
  if (!cell) return null;
  const [lo, hi] = cell.client_ms_ci95.p95;
  return [lo === null ? null : round(lo / scale, 3), hi === null ? null : round(hi / scale, 3)];
}

function sweepChart(r: FilterCostReportInput): ChartSpec | null {
  const sweep = String(r.config.SWEEP_CONFIGURATION);
  const cells = r.cells.filter((c) => c.configuration === sweep && c.shape !== 'ann_only');
  if (cells.length === 0) return null;
  const targets = [...new Set(cells.map((c) => c.selectivity_target))].sort((a, b) => a - b);
  const series: Series[] = [];
  for (const shape of ['ann_filtered', 'filter_ordered'] as const)
    for (const consistency of CONSISTENCIES) {
      const found = targets.map((t) => findCell(r, sweep, shape, t, consistency));
      series.push({
        name: `${shape} ${consistency}`,
        kind: 'line',
        color: SHAPE_COLOR[shape],
        dashed: consistency === 'eventual',
        points: targets.map((t, i): Point => [round(t * 100, 6), ms3(found[i]?.client_ms.p95)]),
        intervals: found.map((c) => interval(c)),
      });
    }
  const axis = publishedAxis(r);
  for (const [shape, key] of [
    ['ann_filtered', 'annFilteredStrongP95Ms'],
    ['filter_ordered', 'filterOrderedStrongP95Ms'],
  ] as const)
    series.push({
      name: `published ${shape} strong`,
      kind: 'scatter',
      reference: true,
      axis,
      color: SHAPE_COLOR[shape],
      points: PUBLISHED_SWEEP.map((p): Point => [Number(p.selectivity), p[key]]),
    });
  return {
    id: 'sweep',
    title: `p95 against selectivity on ${sweep}`,
    subtitle:
      'client p95 of the successful queries per share of rows matching (95 % intervals in the tooltips); ' +
      (axis === 'y2'
        ? 'diamonds: the published strong p95 on the right axis'
        : 'diamonds: the published strong p95'),
    x: { title: 'rows matching the filter (%)', kind: 'log', unit: '%' },
    y: { title: 'client p95 (ms)', kind: 'value', unit: 'ms', min: 0 },
    ...(axis === 'y2'
      ? { y2: { title: 'published p95 (ms)', kind: 'value', unit: 'ms', min: 0 } as const }
      : {}),
    series,
  };
}

function headlineChart(r: FilterCostReportInput): ChartSpec | null {
  const result = r as FilterCostResult;
  const base = { strong: baselineP95(result, 'strong'), eventual: baselineP95(result, 'eventual') };
  const names = r.configurations
    .map((x) => x.name)
    .filter((name) => CONSISTENCIES.some((c) => findCell(r, name, 'ann_filtered', 0.01, c)));
  if (names.length === 0 || (base.strong === null && base.eventual === null)) return null;
  const pubBase = PUBLISHED_HEADLINE[0];
  const series: Series[] = [];
  for (const consistency of CONSISTENCIES) {
    const b = base[consistency];
    const cells = names.map((n) => findCell(r, n, 'ann_filtered', 0.01, consistency));
    series.push({
      name: `${consistency} (this run)`,
      kind: 'bar',
      color: consistency === 'strong' ? 0 : 1,
      points: names.map((n, i): Point => {
        const p95 = cells[i]?.client_ms.p95;
        return [n, p95 != null && b ? round(p95 / b, 3) : null];
      }),
      intervals: cells.map((c) => (b ? interval(c, b) : null)),
    });
  }
  for (const consistency of CONSISTENCIES) {
    const key = consistency === 'strong' ? 'strongP95Ms' : 'eventualP95Ms';
    series.push({
      name: `published ${consistency}`,
      kind: 'scatter',
      reference: true,
      color: consistency === 'strong' ? 0 : 1,
      points: names.flatMap((n): Point[] => {
        const p = PUBLISHED_HEADLINE.find((x) => x.configuration === n);
        return p ? [[n, round(p[key] / pubBase[key], 3)]] : [];
      }),
    });
  }
  const baseText = (c: Consistency) => (base[c] === null ? 'n/a' : `${round(base[c] as number, 2)} ms`);
  return {
    id: 'headline',
    title: 'Filtered p95 at 1 % against the ann_only baseline',
    subtitle:
      `ann_filtered p95 over the baselines' mean ann_only p95 (strong ${baseText('strong')}, eventual ` +
      `${baseText('eventual')}); diamonds: the published ratios (baseline 51.8 / 48.1 ms)`,
    x: { title: 'configuration', kind: 'category', categories: names },
    y: { title: 'p95 ÷ ann_only p95', kind: 'value', unit: '×', min: 0 },
    series,
    lines: [{ axis: 'y', value: 1, label: 'ann_only baseline' }],
  };
}

function ingestChart(r: FilterCostReportInput): ChartSpec | null {
  if (r.configurations.length === 0) return null;
  const names = r.configurations.map((x) => x.name);
  const baselines = r.configurations.filter(
    (x) => x.attribute.type === 'none' && x.ingest.rows_per_s !== null,
  );
  const rates = baselines.map((x) => x.ingest.rows_per_s as number);
  const chart: ChartSpec = {
    id: 'ingest',
    title: 'Ingest throughput per configuration',
    subtitle:
      'rows acknowledged per wall-clock second (body generation and 429 waits included); the band spans the head ' +
      `and tail baselines (drift ${r.drift_pct === null ? 'n/a' : `${round(r.drift_pct, 1)} %`})`,
    x: { title: 'configuration (run order)', kind: 'category', categories: names },
    y: { title: 'rows/s', kind: 'value', unit: 'rows/s', min: 0 },
    series: [
      {
        name: 'rows/s',
        kind: 'bar',
        color: 0,
        points: r.configurations.map(
          (x): Point => [x.name, x.ingest.rows_per_s === null ? null : round(x.ingest.rows_per_s, 1)],
        ),
      },
    ],
  };
  if (rates.length > 0) {
    // The band's own label would sit inside it, behind the bars: the subtitle and the mean line's label name it.
    chart.bands = [
      { axis: 'y', from: round(Math.min(...rates), 1), to: round(Math.max(...rates), 1), label: '' },
    ];
    if (r.baseline_mean_rows_per_s !== null)
      chart.lines = [
        {
          axis: 'y',
          value: round(r.baseline_mean_rows_per_s, 1),
          label: 'baseline mean (band: head to tail)',
        },
      ];
  }
  return chart;
}

function drainChart(r: FilterCostReportInput): ChartSpec | null {
  const withPolls = r.configurations.filter((x) => x.drain.polls.length > 0);
  if (withPolls.length === 0) return null;
  return {
    id: 'drain',
    title: 'Backlog while ingesting and draining',
    subtitle:
      'unindexed_bytes of every metadata poll (between write rounds while ingesting, every ' +
      `${r.configurations[0].drain.poll_interval_s} s after the last write); a curve ends once all is indexed`,
    x: { title: 's since the first write', kind: 'value', unit: 's', min: 0 },
    y: { title: 'unindexed backlog (MiB)', kind: 'value', unit: 'MiB', min: 0 },
    series: withPolls.map((x, i) => ({
      name: x.name,
      kind: 'line',
      color: i,
      points: x.drain.polls.map(([t, bytes]): Point => [t / 1000, mib(bytes)]),
    })),
  };
}

export function filterCostCharts(r: FilterCostReportInput): ChartSet {
  const notes: string[] = [];
  const charts: ChartSpec[] = [];
  for (const [chart, missing] of [
    [sweepChart(r), 'no sweep cells in this run: no selectivity chart'],
    [headlineChart(r), 'no ann_filtered cell at 1 % (or no baseline): no headline chart'],
    [ingestChart(r), 'no configuration: no ingest chart'],
    [drainChart(r), 'no metadata polls: no drain chart'],
  ] as const) {
    if (chart) charts.push(chart);
    else notes.push(missing);
  }
  if (r.target.kind !== 'turbopuffer')
    notes.push(
      "The published figures come from the real service across a network; this target's times do not, so they " +
        "are drawn on their own axis or as ratios to the same run's baseline.",
    );
  return { charts: charts.map(withoutEmptySeries), notes };
}
