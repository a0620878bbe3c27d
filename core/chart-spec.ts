// What a chart shows, independent of the library that draws it: axes, series of points, shaded bands, reference
// lines and marks. Each experiment's chart builders (lib/<experiment>/charts.ts) turn a result into these, so tests
// assert the exact series a chart plots; charts/echarts-option.ts turns them into the charting library's options.
// Pure.

type AxisKind = 'value' | 'log' | 'category';

export interface Axis {
  title: string;
  kind: AxisKind;
  /** The category axis' labels, in order (points name them). */
  categories?: string[];
  /** Unit shown in tooltips after each value: `ms`, `MiB`, `%`, `rows/s`, `×`. */
  unit?: string;
  /** Lower bound (default: the library's choice; 0 for bars). */
  min?: number;
  /** Upper bound (default: the library's choice), e.g. to give charts of one run the same time axis. */
  max?: number;
}

type SeriesKind = 'line' | 'bar' | 'scatter';

/** One point: x (a number, or a category name on a category axis) and y (null: no value, a gap in a line). */
export type Point = [x: number | string, y: number | null];

export interface Series {
  name: string;
  kind: SeriesKind;
  /** Which y axis: the left (default) or the right one. */
  axis?: 'y' | 'y2';
  points: Point[];
  /** Intervals per point, shown in tooltips ([low, high]; null: none). */
  intervals?: ([number | null, number | null] | null)[];
  /** Lines: a step after each point (bucketed series) instead of straight segments. */
  step?: boolean;
  /** Lines: filled down to the axis. */
  area?: boolean;
  dashed?: boolean;
  /** Marks: a reference (published) figure, drawn as a hollow diamond. */
  reference?: boolean;
  /** Colour index into the palette: series that belong together (strong p50 and p99) share a hue. */
  color?: number;
}

/** A shaded range along the x axis (a phase window) or along a y axis (a baseline band). */
export interface Band {
  axis: 'x' | 'y' | 'y2';
  from: number | string;
  to: number | string;
  label: string;
  color?: number;
}

/** A straight reference line across the chart at one value of an axis. */
export interface RefLine {
  axis: 'x' | 'y' | 'y2';
  value: number;
  label: string;
  /** Label over the line's middle instead of its end: for a line just below another, whose label would overlap it. */
  labelMiddle?: boolean;
}

export interface ChartSpec {
  /** File-name part and HTML id: `latency`, `sweep`. */
  id: string;
  title: string;
  /** What the reader should know to read it (a line under the title, and the alt text). */
  subtitle: string;
  x: Axis;
  y: Axis;
  y2?: Axis;
  series: Series[];
  bands?: Band[];
  lines?: RefLine[];
}

/** A result's charts plus what was left out and why (a result older than a field says so here). */
export interface ChartSet {
  charts: ChartSpec[];
  notes: string[];
}

const MiB = 2 ** 20;

/** Bytes in MiB, to 3 decimals (the backlog axes). */
export function mib(bytes: number): number {
  return Math.round((bytes / MiB) * 1000) / 1000;
}

/** Milliseconds to 3 decimals (µs resolution), null kept. */
export function ms3(x: number | null | undefined): number | null {
  return x == null ? null : Math.round(x * 1000) / 1000;
}

/** The chart without series that have no value at all (a cell nobody measured): nothing to draw or toggle. */
export function withoutEmptySeries(spec: ChartSpec): ChartSpec {
  return { ...spec, series: spec.series.filter((s) => s.points.some(([, y]) => y !== null)) };
}
