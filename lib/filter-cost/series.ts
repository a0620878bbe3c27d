// Experiment 2's time series (lib/time-series.ts) on the study's clock, t = 0 when setup() began: every
// configuration's metadata polls while it was ingested and drained (kept whole in setup data), then the query
// windows' buckets. The query buckets count from the end of setup (the scenarios' t = 0, which every VU derives from
// its scenario's start and records as series_origin_ms) and are shifted onto the study's clock. Only the buckets a
// window of that consistency can reach get sub-metrics. Pure.
import type { Thresholds } from '../metric-names';
import { metricValue, type SummaryData } from '../results/summary-data';
import {
  type MetadataSeries,
  pollRowCounts,
  querySeriesThresholds,
  readQuerySeries,
  SERIES_METRIC,
  type SeriesClock,
  secondsFrom,
  seriesClock,
  type TimeSeries,
  type TimeSeriesWindow,
} from '../time-series';
import { CONSISTENCIES } from './cells';
import type { FilterCostConfig } from './config';
import type { Poll } from './drain';
import type { ConfigurationData } from './setup-data';
import type { Timeline } from './timeline';

/** The query clock: t = 0 at the end of setup, buckets over the timeline. */
export function queryClock(plan: Timeline, originMs: number): SeriesClock {
  return seriesClock(originMs, plan.totalMs);
}

/** The (bucket, consistency) pairs a query can land in: each window with its graceful stop, and the JIT warm-up. */
export function seriesPairs(c: FilterCostConfig, plan: Timeline, clock: SeriesClock): [string, string][] {
  const seen = new Set<string>();
  const out: [string, string][] = [];
  const gapMs = Math.round(c.cellGapS * 1000);
  const add = (fromMs: number, toMs: number, consistency: string) => {
    const step = clock.intervalS * 1000;
    for (let b = Math.floor(fromMs / step); b * step < toMs && b < clock.buckets; b++) {
      const key = `${b}/${consistency}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push([String(b * clock.intervalS), consistency]);
    }
  };
  if (plan.jitMs > 0) add(0, plan.jitMs + gapMs, 'eventual');
  for (const w of plan.windows) add(w.startMs, w.startMs + w.warmupMs + w.measuredMs + gapMs, w.consistency);
  return out;
}

export function filterCostSeriesThresholds(c: FilterCostConfig, plan: Timeline): Thresholds {
  return querySeriesThresholds(seriesPairs(c, plan, queryClock(plan, 0)));
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** One configuration's polls on the study clock. */
function pollSeries(polls: readonly Poll[], originS: number): MetadataSeries {
  const out: MetadataSeries = { t_s: [], unindexed_bytes: [], rows: [], rows_indexed: [] };
  for (const [t, bytes, , approxRowCount, unindexedRows] of polls) {
    const counts = pollRowCounts(approxRowCount, unindexedRows);
    out.t_s.push(round3(originS + t / 1000));
    out.unindexed_bytes.push(bytes);
    out.rows.push(counts.rows);
    out.rows_indexed.push(counts.rowsIndexed);
  }
  return out;
}

export function buildFilterCostSeries(
  data: SummaryData,
  plan: Timeline,
  setup: { startedAtMs: number; configurations: readonly ConfigurationData[] },
): TimeSeries {
  const queryOriginMs = metricValue(data, SERIES_METRIC.origin, 'value');
  const offsetS = queryOriginMs ? secondsFrom(setup.startedAtMs, queryOriginMs) : null;
  const queries: TimeSeries['queries'] = {};
  const windows: TimeSeriesWindow[] = [];
  for (const x of setup.configurations) {
    const origin = x.drain.polls_origin_s;
    const ingestEnd = round3(origin + x.ingest.last_ack_ms / 1000);
    windows.push({ label: `${x.name}/ingest`, kind: 'phase', start_s: round3(origin), end_s: ingestEnd });
    if (x.drain.duration_s !== null)
      windows.push({
        label: `${x.name}/drain`,
        kind: 'phase',
        start_s: ingestEnd,
        end_s: round3(ingestEnd + x.drain.duration_s),
      });
  }
  if (offsetS !== null) {
    const clock = queryClock(plan, 0);
    for (const consistency of CONSISTENCIES) {
      const q = readQuerySeries(data, clock, consistency);
      q.t_s = q.t_s.map((t) => round3(t + offsetS));
      queries[consistency] = q;
    }
    for (const w of plan.windows) {
      const start = round3(offsetS + w.startMs / 1000);
      const measured = round3(start + w.warmupMs / 1000);
      const label = `${w.cell.id}/${w.consistency}`;
      windows.push({ label, kind: 'warmup', start_s: start, end_s: measured });
      windows.push({ label, kind: 'cell', start_s: measured, end_s: round3(measured + w.measuredMs / 1000) });
    }
  }
  const metadata: TimeSeries['metadata'] = {};
  for (const x of setup.configurations) metadata[x.name] = pollSeries(x.drain.polls, x.drain.polls_origin_s);
  return {
    origin: new Date(setup.startedAtMs).toISOString(),
    interval_s: queryClock(plan, 0).intervalS,
    origin_is:
      "the study's start (setup() began); each configuration's polls from its first write, the queries' " +
      'buckets from the end of setup',
    queries,
    metadata,
    windows,
  };
}
