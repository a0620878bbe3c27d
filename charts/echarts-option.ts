// A chart spec (core/chart-spec.ts) -> an Apache ECharts option: the one object both the SVG files (rendered
// server-side) and the interactive HTML report draw, so the picture in the Markdown and the one in the browser are
// the same chart. Plain JSON (no functions): the HTML page adds its tooltip formatter in the browser.
import type { Axis, Band, ChartSpec, RefLine, Series } from '../core/chart-spec';

/** A palette with distinct hues (colour-blind friendly first six), indexed by Series.color. */
const PALETTE = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
  '#393b79',
  '#ad494a',
  '#637939',
  '#7b4173',
];
const BAND_COLORS = ['#4c72b0', '#dd8452', '#55a868', '#c44e52', '#8172b3', '#937860'];

export const CHART_WIDTH = 960;
export const CHART_HEIGHT = 440;

// biome-ignore lint/suspicious/noExplicitAny: ECharts options are deep, open-ended JSON; its own types add nothing here.
export type EChartsOption = Record<string, any>;

function colorOf(s: Series, i: number): string {
  return PALETTE[(s.color ?? i) % PALETTE.length];
}

function axisOption(a: Axis, position?: 'left' | 'right'): EChartsOption {
  const out: EChartsOption = {
    type: a.kind === 'category' ? 'category' : a.kind,
    name: a.title,
    nameLocation: 'middle',
    nameGap: a.kind === 'category' ? 36 : 44,
    splitLine: { show: position !== 'right' },
  };
  if (a.kind === 'category') out.data = a.categories ?? [];
  if (a.kind === 'category')
    out.axisLabel = { interval: 0, rotate: (a.categories?.length ?? 0) > 6 ? 30 : 0 };
  if (a.min !== undefined && a.kind !== 'log') out.min = a.min;
  if (a.max !== undefined && a.kind !== 'log') out.max = a.max;
  if (position) out.position = position;
  return out;
}

function bandData(b: Band): EChartsOption[] {
  const key = b.axis === 'x' ? 'xAxis' : 'yAxis';
  const color = BAND_COLORS[(b.color ?? 0) % BAND_COLORS.length];
  return [
    { [key]: b.from, name: b.label, itemStyle: { color, opacity: 0.12 }, label: { color: '#555' } },
    { [key]: b.to },
  ];
}

function lineData(l: RefLine): EChartsOption {
  return {
    [l.axis === 'x' ? 'xAxis' : 'yAxis']: l.value,
    name: l.label,
    label: l.labelMiddle ? { formatter: l.label, position: 'insideMiddleTop' } : { formatter: l.label },
  };
}

function seriesOption(s: Series, i: number, unit: string | undefined): EChartsOption {
  const color = colorOf(s, i);
  const data = s.points.map(([x, y], j) => {
    const interval = s.intervals?.[j];
    return interval ? { value: [x, y], interval } : [x, y];
  });
  const out: EChartsOption = {
    name: s.name,
    type: s.kind,
    data,
    yAxisIndex: s.axis === 'y2' ? 1 : 0,
    color,
    // Read by the page's tooltip formatter.
    unit,
  };
  if (s.kind === 'line') {
    out.connectNulls = false;
    out.showSymbol = s.points.length <= 40;
    out.symbolSize = 5;
    out.lineStyle = { width: 2, type: s.dashed ? 'dashed' : 'solid' };
    if (s.step) out.step = 'end';
    if (s.area) out.areaStyle = { opacity: 0.15 };
  }
  if (s.kind === 'bar') out.barMaxWidth = 28;
  if (s.kind === 'scatter') {
    out.symbol = s.reference ? 'diamond' : 'circle';
    out.symbolSize = s.reference ? 11 : 7;
    out.itemStyle = s.reference ? { color: '#ffffff', borderColor: color, borderWidth: 2 } : { color };
    out.z = 5;
  }
  return out;
}

/** The series that carries the marks of one axis: the first drawn on it (marks follow their series' axes). */
function carrierIndex(series: readonly Series[], axis: 'x' | 'y' | 'y2'): number {
  if (axis === 'y2') {
    const i = series.findIndex((s) => s.axis === 'y2');
    if (i >= 0) return i;
  }
  const i = series.findIndex((s) => (s.axis ?? 'y') === 'y');
  return Math.max(i, 0);
}

export function echartsOption(spec: ChartSpec): EChartsOption {
  const series = spec.series.map((s, i) => seriesOption(s, i, s.axis === 'y2' ? spec.y2?.unit : spec.y.unit));
  for (const b of spec.bands ?? []) {
    const target = series[carrierIndex(spec.series, b.axis)];
    if (!target) continue;
    target.markArea ??= { silent: true, label: { position: 'insideTop', fontSize: 11 }, data: [] };
    target.markArea.data.push(bandData(b));
  }
  for (const l of spec.lines ?? []) {
    const target = series[carrierIndex(spec.series, l.axis)];
    if (!target) continue;
    target.markLine ??= {
      silent: true,
      symbol: 'none',
      lineStyle: { type: 'dashed', color: '#666', width: 1 },
      label: { position: 'insideEndTop', fontSize: 11, color: '#444' },
      data: [],
    };
    target.markLine.data.push(lineData(l));
  }
  const yAxis = [axisOption(spec.y, 'left')];
  if (spec.y2) yAxis.push(axisOption(spec.y2, 'right'));
  return {
    animation: false,
    backgroundColor: '#ffffff',
    textStyle: { fontFamily: 'Helvetica, Arial, sans-serif' },
    title: {
      text: spec.title,
      subtext: spec.subtitle,
      left: 10,
      top: 6,
      subtextStyle: { width: CHART_WIDTH - 40, overflow: 'break' },
    },
    legend: { top: 62, left: 10, right: 10, type: 'scroll' },
    grid: { top: 104, left: 70, right: spec.y2 ? 80 : 30, bottom: spec.x.kind === 'category' ? 80 : 56 },
    tooltip: { trigger: 'axis', axisPointer: { type: spec.x.kind === 'category' ? 'shadow' : 'line' } },
    xAxis: axisOption(spec.x),
    yAxis,
    series,
    // Meta for the page: the x unit for tooltips.
    benchXUnit: spec.x.unit ?? '',
  };
}
