// Experiment 1's charts from its result JSON: client latency over time per consistency with the backlog on a second
// axis and the phases shaded, the error rate over time, and every cell's percentiles beside the published table.
// A result from before the time series (no `series`) still gets all three: each cell's figures drawn across its
// window and the backlog at the metadata snapshots, with a note saying so. Pure.
import {
  type Band,
  type ChartSet,
  type ChartSpec,
  mib,
  ms3,
  type Point,
  type RefLine,
  type Series,
  withoutEmptySeries,
} from '../../core/chart-spec';
import type { QuerySeries, TimeSeries, TimeSeriesWindow } from '../time-series';
import { PUBLISHED_BACKLOG, SERVICE_BACKLOG_LIMIT_BYTES } from './published';
import type { Cell, MetadataSnapshot } from './results/cells';
import type { BacklogResult } from './results/json';

/** A result as the report reads it: any committed result, the series optional (older results have none). */
export type BacklogReportInput = Omit<BacklogResult, 'series'> & { series?: TimeSeries };

const PHASE_LABEL: Record<string, string> = {
  idle: 'idle',
  indexing_below_limit: 'indexing below the limit',
  indexing_above_limit: 'indexing above the limit',
};
const CONSISTENCY_COLOR: Record<string, number> = { strong: 0, eventual: 1 };

/** Points at each bucket's middle, with a null where buckets are missing, so a line breaks there. */
function bucketPoints(q: QuerySeries, values: (number | null)[], intervalS: number): Point[] {
  const out: Point[] = [];
  q.t_s.forEach((t, i) => {
    if (i > 0 && t - q.t_s[i - 1] > intervalS + 1e-9) out.push([q.t_s[i - 1] + intervalS, null]);
    out.push([t + intervalS / 2, values[i] === null ? null : ms3(values[i])]);
  });
  return out;
}

/** A cell's figure held across its measured window (the older results' stand-in for a series). */
function windowPoints(cells: readonly Cell[], originMs: number, value: (c: Cell) => number | null): Point[] {
  const out: Point[] = [];
  for (const cell of cells) {
    if (!cell.window.start || !cell.window.end) continue;
    const s = (Date.parse(cell.window.start) - originMs) / 1000;
    const e = (Date.parse(cell.window.end) - originMs) / 1000;
    const v = value(cell);
    out.push([s, v], [e, v], [e, null]);
  }
  return out;
}

function phaseBands(windows: readonly TimeSeriesWindow[]): Band[] {
  return windows
    .filter((w) => w.kind === 'phase')
    .map((w, i) => ({
      axis: 'x',
      from: w.start_s,
      to: w.end_s,
      label: PHASE_LABEL[w.label] ?? w.label,
      color: i,
    }));
}

/** The emulator's backlog limit, as the result recorded it (results before that have none). */
function emulatorLimit(r: BacklogReportInput): number | null {
  const target = r.target as { emulator?: { settings?: { backlog_limit_bytes?: number } } | null };
  return target.emulator?.settings?.backlog_limit_bytes ?? null;
}

/** The backlog gates and the target's limit as lines on the backlog axis, in MiB. */
function gateLines(r: BacklogReportInput): RefLine[] {
  const c = r.config;
  const lines: RefLine[] = [
    { axis: 'y2', value: mib(Number(c.LT_CAP_BYTES)), label: 'below-limit cap (LT_CAP_BYTES)' },
    {
      axis: 'y2',
      value: mib(Number(c.GT_START_BYTES)),
      label:
        r.target.kind === 'turbopuffer' || emulatorLimit(r) !== null
          ? 'above-limit floor (GT_START_BYTES)'
          : "above-limit floor (GT_START_BYTES); the target's limit lies below it",
    },
  ];
  // The limit lies between the cap and the floor, a few MiB from both: its label goes over the line's middle, clear of
  // theirs at the right end.
  if (r.target.kind === 'turbopuffer')
    lines.push({
      axis: 'y2',
      value: mib(SERVICE_BACKLOG_LIMIT_BYTES),
      label: 'limit (2 GiB)',
      labelMiddle: true,
    });
  const limit = emulatorLimit(r);
  if (limit !== null)
    lines.push({
      axis: 'y2',
      value: mib(limit),
      label: "limit (the emulator's --backlog-limit)",
      labelMiddle: true,
    });
  return lines;
}

/** Seconds of each snapshot from the origin, for results without a series. */
function snapshotPoints(snapshots: readonly MetadataSnapshot[], originMs: number): Point[] {
  return snapshots.map((s) => [
    ms3((Date.parse(s.time) - originMs) / 1000) as number,
    mib(s.unindexed_bytes),
  ]);
}

/** Where t = 0 is for a result without a series: the first cell's warm-up start (the phase machine's t0). */
function legacyOrigin(r: BacklogReportInput): number {
  const starts = r.cells.filter((c) => c.window.start).map((c) => Date.parse(c.window.start as string));
  const warmupMs = Number(r.config.QUERY_WARMUP_S) * 1000;
  return starts.length > 0 ? Math.min(...starts) - warmupMs : Date.parse(r.started_at);
}

function legacyPhaseBands(r: BacklogReportInput, originMs: number): Band[] {
  const warmup = Number(r.config.QUERY_WARMUP_S);
  const byPhase = new Map<string, [number, number]>();
  for (const cell of r.cells) {
    if (!cell.window.start || !cell.window.end) continue;
    const s = (Date.parse(cell.window.start) - originMs) / 1000 - warmup;
    const e = (Date.parse(cell.window.end) - originMs) / 1000;
    const p = byPhase.get(cell.phase);
    byPhase.set(cell.phase, [Math.min(p?.[0] ?? s, s), Math.max(p?.[1] ?? e, e)]);
  }
  return [...byPhase].map(([phase, [from, to]], i) => ({
    axis: 'x',
    from: Math.max(0, ms3(from) as number),
    to: ms3(to) as number,
    label: PHASE_LABEL[phase] ?? phase,
    color: i,
  }));
}

const CONSISTENCIES = ['strong', 'eventual'] as const;

/** The backlog on the latency chart's second axis, from the time series or (older results) the snapshots. */
function backlogSeries(points: Point[]): Series {
  return { name: 'backlog (unindexed)', kind: 'line', axis: 'y2', area: true, color: 2, points };
}

function latencyChart(r: BacklogReportInput): ChartSpec {
  const s = r.series;
  const series: Series[] = [];
  let bands: Band[];
  if (s) {
    for (const c of CONSISTENCIES) {
      const q = s.queries[c];
      if (!q) continue;
      const color = CONSISTENCY_COLOR[c];
      series.push({
        name: `${c} p50`,
        kind: 'line',
        color,
        points: bucketPoints(q, q.client_ms.p50, s.interval_s),
      });
      series.push({
        name: `${c} p99`,
        kind: 'line',
        color,
        dashed: true,
        points: bucketPoints(q, q.client_ms.p99, s.interval_s),
      });
    }
    const m = Object.values(s.metadata)[0];
    if (m) series.push(backlogSeries(m.t_s.map((t, i): Point => [t, mib(m.unindexed_bytes[i])])));
    bands = phaseBands(s.windows);
  } else {
    const origin = legacyOrigin(r);
    for (const c of CONSISTENCIES) {
      const cells = r.cells.filter((x) => x.consistency === c);
      const color = CONSISTENCY_COLOR[c];
      series.push({
        name: `${c} p50`,
        kind: 'line',
        color,
        points: windowPoints(cells, origin, (x) => ms3(x.client_ms.p50)),
      });
      series.push({
        name: `${c} p99`,
        kind: 'line',
        color,
        dashed: true,
        points: windowPoints(cells, origin, (x) => ms3(x.client_ms.p99)),
      });
    }
    series.push(backlogSeries(snapshotPoints(r.metadata_snapshots, origin)));
    bands = legacyPhaseBands(r, origin);
  }
  return {
    id: 'latency',
    title: 'Client latency while indexing',
    subtitle: s
      ? `p50 and p99 of successful queries per ${s.interval_s} s bucket, by consistency; backlog from metadata polls`
      : 'p50 and p99 of each cell across its measured window; backlog at the metadata snapshots',
    x: { title: 's since the idle phase began', kind: 'value', unit: 's', min: 0 },
    y: { title: 'client latency (ms)', kind: 'value', unit: 'ms', min: 0 },
    y2: { title: 'unindexed backlog (MiB)', kind: 'value', unit: 'MiB', min: 0 },
    series,
    bands,
    lines: gateLines(r),
  };
}

function errorChart(r: BacklogReportInput): ChartSpec {
  const s = r.series;
  const series: Series[] = [];
  const pct = (errors: number, requests: number) =>
    requests > 0 ? Math.round((errors / requests) * 1e4) / 100 : null;
  if (s) {
    for (const c of CONSISTENCIES) {
      const q = s.queries[c];
      if (!q) continue;
      const errors = q.requests.map((_, i) =>
        Object.values(q.errors_by_status).reduce((sum, col) => sum + col[i], 0),
      );
      series.push({
        name: `${c} errors`,
        kind: 'line',
        color: CONSISTENCY_COLOR[c],
        points: bucketPoints(
          q,
          q.requests.map((n, i) => pct(errors[i], n)),
          s.interval_s,
        ),
      });
    }
  } else {
    const origin = legacyOrigin(r);
    for (const c of CONSISTENCIES)
      series.push({
        name: `${c} errors`,
        kind: 'line',
        color: CONSISTENCY_COLOR[c],
        points: windowPoints(
          r.cells.filter((x) => x.consistency === c),
          origin,
          (x) => pct(x.errors, x.requests),
        ),
      });
  }
  return {
    id: 'errors',
    title: 'Query error rate',
    subtitle: s
      ? `failed queries per ${s.interval_s} s bucket, % of that bucket's queries (strong reads over the limit get 429)`
      : "each cell's failed queries across its measured window, % of the cell's queries",
    x: { title: 's since the idle phase began', kind: 'value', unit: 's', min: 0 },
    y: { title: 'errors (% of queries)', kind: 'value', unit: '%', min: 0 },
    series,
    bands: s ? phaseBands(s.windows) : legacyPhaseBands(r, legacyOrigin(r)),
  };
}

const SHORT_PHASE: Record<string, string> = {
  idle: 'idle',
  indexing_below_limit: 'below limit',
  indexing_above_limit: 'above limit',
};

/** Two short lines per category, so six fit side by side. */
function cellLabel(c: Pick<Cell, 'phase' | 'consistency'>): string {
  return `${SHORT_PHASE[c.phase] ?? c.phase}\n${c.consistency}`;
}

function cellChart(r: BacklogReportInput): ChartSpec {
  const categories = r.cells.map(cellLabel);
  const percentiles = ['p50', 'p95', 'p99'] as const;
  const series: Series[] = percentiles.map((p, i) => ({
    name: `client ${p}`,
    kind: 'bar',
    color: i,
    points: r.cells.map((c): Point => [cellLabel(c), ms3(c.client_ms[p])]),
  }));
  // Published client times include a network round trip, a local run's do not: on another scale then.
  const sameScale = r.target.kind === 'turbopuffer';
  for (const [i, p] of percentiles.entries())
    series.push({
      name: `published ${p}`,
      kind: 'scatter',
      reference: true,
      color: i,
      axis: sameScale ? 'y' : 'y2',
      points: PUBLISHED_BACKLOG.map((row): Point => [cellLabel(row), row.clientMs[p]]),
    });
  return {
    id: 'cells',
    title: 'Client latency per cell',
    subtitle: sameScale
      ? 'bars: this run; diamonds: the published run (gcp-us-central1, 8 workers, 60 s cells)'
      : 'bars: this run (left axis); diamonds: the published run on the right axis (its times include a network round trip)',
    x: { title: 'phase, consistency', kind: 'category', categories },
    y: { title: 'client latency (ms)', kind: 'value', unit: 'ms', min: 0 },
    ...(sameScale ? {} : { y2: { title: 'published (ms)', kind: 'value', unit: 'ms', min: 0 } as const }),
    series,
  };
}

export function backlogCharts(r: BacklogReportInput): ChartSet {
  const notes: string[] = [];
  if (!r.series)
    notes.push(
      "This result predates the time series: the latency and error charts hold each cell's figures across its " +
        `window, and the backlog is drawn from the ${r.metadata_snapshots.length} metadata snapshots.`,
    );
  if (r.target.kind !== 'turbopuffer' && emulatorLimit(r) === null)
    notes.push(
      "The target's backlog limit is not in the result: the dashed lines are the phase gates (the limit lies " +
        'between them).',
    );
  const [latency, errors] = sharedTimeAxis(latencyChart(r), errorChart(r));
  return { charts: [latency, errors, cellChart(r)].map(withoutEmptySeries), notes };
}

/** The charts over time on one x range (each chart's own ended where its data did: 250 s beside 210 s). */
function sharedTimeAxis(...charts: ChartSpec[]): ChartSpec[] {
  let end = 0;
  for (const c of charts) {
    for (const series of c.series)
      for (const [x] of series.points) if (typeof x === 'number') end = Math.max(end, x);
    for (const b of c.bands ?? []) if (b.axis === 'x' && typeof b.to === 'number') end = Math.max(end, b.to);
  }
  const max = Math.ceil(end / 10) * 10;
  return charts.map((c) => ({ ...c, x: { ...c.x, max } }));
}
