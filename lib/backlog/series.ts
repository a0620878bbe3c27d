// Experiment 1's time series (lib/time-series.ts): t = 0 is the schedule's t0 (the idle phase's start, which every VU
// gets from setup data); the buckets cover the scenarios' bounded duration. Query VUs tag each query with its
// bucket, writers tag every metadata poll and every acknowledged batch. Pure.
import { subMetric, type Thresholds } from '../metric-names';
import { metricValue, type SummaryData } from '../results/summary-data';
import {
  allPairs,
  bucketTags,
  metadataSeriesThresholds,
  querySeriesThresholds,
  readMetadataSeries,
  readQuerySeries,
  SERIES_TAG,
  type SeriesClock,
  secondsFrom,
  seriesClock,
  type TimeSeries,
  type TimeSeriesWindow,
} from '../time-series';
import type { BacklogConfig } from './config';
import { BACKLOG_METRIC } from './metric-keys';
import { CONSISTENCIES, scenarioDurationMs, scheduleOf } from './phases';
import type { Cell } from './results/cells';

/** The series clock of a run whose schedule starts at `t0` (epoch ms); interval and buckets depend on the knobs only. */
export function backlogClock(c: BacklogConfig, t0: number): SeriesClock {
  return seriesClock(t0, scenarioDurationMs(scheduleOf(c)));
}

function rowsKey(ts: string): string {
  return subMetric(BACKLOG_METRIC.rowsWritten, { [SERIES_TAG]: ts });
}

/** The always-true thresholds that put every bucket into the summary data. */
export function backlogSeriesThresholds(c: BacklogConfig): Thresholds {
  const clock = backlogClock(c, 0);
  const t: Thresholds = {
    ...querySeriesThresholds(allPairs(clock, CONSISTENCIES)),
    ...metadataSeriesThresholds(bucketTags(clock)),
  };
  for (const ts of bucketTags(clock)) t[rowsKey(ts)] = ['count>=0'];
  return t;
}

/** Cells' measured windows, their warm-ups and the phases (first warm-up to last window end) on the series clock. */
function backlogWindows(cells: readonly Cell[], originMs: number, warmupS: number): TimeSeriesWindow[] {
  const out: TimeSeriesWindow[] = [];
  const phases = new Map<string, { start: number; end: number }>();
  for (const cell of cells) {
    if (!cell.window.start || !cell.window.end) continue;
    const start = secondsFrom(originMs, Date.parse(cell.window.start));
    const end = secondsFrom(originMs, Date.parse(cell.window.end));
    const label = `${cell.phase}/${cell.consistency}`;
    out.push({ label, kind: 'warmup', start_s: Math.max(0, start - warmupS), end_s: start });
    out.push({ label, kind: 'cell', start_s: start, end_s: end });
    const p = phases.get(cell.phase);
    phases.set(cell.phase, {
      start: Math.min(p?.start ?? Number.POSITIVE_INFINITY, start - warmupS),
      end: Math.max(p?.end ?? Number.NEGATIVE_INFINITY, end),
    });
  }
  for (const [label, p] of phases)
    out.push({ label, kind: 'phase', start_s: Math.max(0, p.start), end_s: p.end });
  return out;
}

export function buildBacklogSeries(
  data: SummaryData,
  c: BacklogConfig,
  t0: number,
  namespace: string,
  cells: readonly Cell[],
): TimeSeries {
  const clock = backlogClock(c, t0);
  const queries: TimeSeries['queries'] = {};
  for (const consistency of CONSISTENCIES) queries[consistency] = readQuerySeries(data, clock, consistency);
  const writes = { t_s: [] as number[], rows: [] as number[] };
  for (const ts of bucketTags(clock)) {
    const rows = metricValue(data, rowsKey(ts), 'count') ?? 0;
    if (rows === 0) continue;
    writes.t_s.push(Number(ts));
    writes.rows.push(rows);
  }
  return {
    origin: new Date(t0).toISOString(),
    interval_s: clock.intervalS,
    origin_is: "the idle phase's start (t0 of the phase machine, shortly after setup)",
    queries,
    metadata: { [namespace]: readMetadataSeries(data, clock) },
    writes,
    windows: backlogWindows(cells, t0, c.queryWarmupS),
  };
}
