// handleSummary data and setup() data of a small study (both baselines, int-2, int-100, the int-10k sweep and its
// non-filterable twin), shaped exactly like the sub-metric keys the script declares. Latencies come from seeded
// sample sets summarised as the runner would (the quantile grid), so estimates and intervals are consistent. Values
// are made up. Used by the renderer golden tests.

import type { SummaryData, SummaryMetric } from '../../../results/summary-data';
import { FIXTURE_EMULATOR } from '../../../results/testdata/emulator-info';
import { querySeriesKeys, SERIES_METRIC } from '../../../time-series';
import { mulberry32 } from '../../../vectors';
import { CONSISTENCIES, planStudy, type StudyPlan } from '../../cells';
import { type FilterCostConfig, readFilterCostConfig } from '../../config';
import type { Poll } from '../../drain';
import { cellKeys, FILTER_COST_METRIC } from '../../metric-keys';
import { GRID_PERCENTS, gridOf } from '../../quantile-grid';
import { queryClock, seriesPairs } from '../../series';
import type { ConfigurationData, SetupData } from '../../setup-data';
import { timeline } from '../../timeline';
import type { FilterCostRunInfo } from '../json';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
/** setup() took a minute: the queries' clock starts then. */
const FIXTURE_QUERY_ORIGIN_MS = T0 + 60_000;

export const fixtureConfig: FilterCostConfig = readFilterCostConfig({
  ROWS: '20000',
  CONFIGURATIONS: 'baseline-head,int-2,int-100,int-10k,int-10k-unfiltered,baseline-tail',
  SELECTIVITIES: '0.1,1,10',
  QUERY_DURATION_S: '10',
  RECALL_QUERIES: '4',
  SEED: '42',
  TURBOPUFFER_BASE_URL: 'http://127.0.0.1:8787',
});
export const fixturePlan: StudyPlan = planStudy(fixtureConfig);

const counter = (count: number): SummaryMetric => ({ type: 'counter', values: { count, rate: count / 10 } });

/** A trend summarised as the runner would: the grid's percentiles plus min, max, avg, med and count. */
function trend(sorted: number[]): SummaryMetric {
  const g = gridOf(sorted);
  const values: Record<string, number> = {
    count: g.n,
    min: g.min,
    max: g.max,
    avg: 0,
    med: g.values[GRID_PERCENTS.indexOf(50)],
  };
  GRID_PERCENTS.forEach((p, i) => {
    values[`p(${p})`] = g.values[i];
  });
  values.avg = sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length);
  return { type: 'trend', values };
}

function samples(n: number, median: number, seed: number): number[] {
  const next = mulberry32(seed);
  return Array.from(
    { length: n },
    () => median * Math.exp(0.3 * (next() / 2 ** 32 - 0.5) + 0.5 * (next() / 2 ** 32) ** 8),
  ).sort((a, b) => a - b);
}

export function fixtureSummary(): SummaryData {
  const metrics: Record<string, SummaryMetric> = {
    dropped_iterations: counter(0),
    [FILTER_COST_METRIC.writeErrors]: counter(0),
    [FILTER_COST_METRIC.writeRetries429]: counter(3),
  };
  fixturePlan.cells.forEach((cell, i) => {
    for (const consistency of CONSISTENCIES) {
      const k = cellKeys(cell, consistency);
      const errors = cell.id === 'int-10k/filter_ordered/10' && consistency === 'strong' ? 2 : 0;
      const requests = 200;
      const strong = consistency === 'strong' ? 1 : 0;
      metrics[k.requests] = counter(requests);
      metrics[k.failed] = {
        type: 'rate',
        values: { rate: errors / requests, passes: errors, fails: requests - errors },
      };
      metrics[k.errors('429')] = counter(errors);
      metrics[k.clientOk] = trend(samples(requests - errors, 3 + (i % 5) * 0.4 + strong, 100 * i + strong));
      metrics[k.server] = trend(samples(requests - errors, 1.5 + (i % 5) * 0.3, 100 * i + 50 + strong));
      metrics[k.execution] = trend(samples(requests - errors, 1, 7));
      metrics[k.exhaustive] = trend([0, 0]);
      metrics[k.fromIntended] = trend(samples(requests, 3.5, 9));
      metrics[k.returnedRows] = trend([cell.expectedRows, cell.expectedRows]);
    }
  });
  // The time series: 10 queries in every bucket a window can reach, strong ones a millisecond slower.
  metrics[SERIES_METRIC.origin] = { type: 'gauge', values: { value: FIXTURE_QUERY_ORIGIN_MS } };
  const plan = timeline(fixtureConfig, fixturePlan.cells);
  for (const [ts, consistency] of seriesPairs(fixtureConfig, plan, queryClock(plan, 0))) {
    const q = querySeriesKeys(ts, consistency);
    const strong = consistency === 'strong' ? 1 : 0;
    metrics[q.requests] = counter(10);
    metrics[q.errors('429')] = counter(0);
    metrics[q.clientOk] = trend([3 + strong, 3 + strong, 4 + strong, 5 + strong]);
    metrics[q.server] = trend([2, 2, 2]);
  }
  return { metrics };
}

function configurationData(c: FilterCostConfig, plan: StudyPlan, name: string, i: number): ConfigurationData {
  const x = c.configurations.find((y) => y.name === name);
  const bytesPerRow = x?.attribute ? 3088 : 3080;
  const cells = plan.cells.filter((cell) => cell.configuration === name);
  const matches: Record<string, number | null> = {};
  for (const cell of cells) if (cell.filter) matches[cell.selectivityTag] = cell.expectedMatches;
  const recall: ConfigurationData['recall'] = {};
  for (const cell of cells)
    if (cell.shape !== 'filter_ordered')
      recall[cell.id] = {
        strong: { queries: 4, mean: cell.filter ? 1 : 0.975, min: 0.9, failed: 0 },
        eventual: { queries: 4, mean: cell.filter ? 1 : 0.95, min: 0.9, failed: 0 },
      };
  const wall = 2 + (i % 3) * 0.05;
  // approx_row_count (the fourth column) counts the rows indexed, as the service's and the emulator's do.
  const polls: Poll[] = [
    [0, 0, 1, 0, 0],
    [500, 4 * bytesPerRow * 1000, 0, 0, 4000],
    [1000, 9 * bytesPerRow * 1000, 0, 1000, 9000],
    [Math.round(wall * 1000) + 250, 3 * bytesPerRow * 1000, 0, c.rows - 3000, 3000],
    [Math.round(wall * 1000) + 500, 0, 1, c.rows, 0],
  ];
  return {
    name,
    namespace: `bench-filter-cost-fixture-${name}`,
    ingest: {
      rows: c.rows,
      requests: 20,
      request_bytes: 41_000_000,
      billable_bytes_written: c.rows * bytesPerRow,
      wall_s: wall,
      retries_429: name === 'int-2' ? 3 : 0,
      write_errors: 0,
      write_ms: { p50: 240, p95: 250, p99: 250, max: 250 },
      last_ack_ms: Math.round(wall * 1000),
    },
    drain: {
      peak_unindexed_bytes: 9 * bytesPerRow * 1000,
      duration_s: 0.5,
      poll_interval_s: 0.25,
      polls,
      // The configurations one after another, 6 s each, after a second of warm-up.
      polls_origin_s: 1 + 6 * i,
    },
    storage: {
      approx_logical_bytes: c.rows * bytesPerRow + (x?.attribute?.filterable ? 4000 : 0),
      approx_row_count: c.rows,
      billing: { billable_logical_bytes_written: c.rows * bytesPerRow },
    },
    matches,
    recall,
  };
}

function fixtureSetup(): SetupData {
  const names = fixtureConfig.configurations.map((x) => x.name);
  return {
    prefix: 'bench-filter-cost-fixture',
    seed: 42,
    startedAtMs: T0,
    // Setup took five minutes; the windows after it end well before the finish (fixtureRunInfo).
    setupEndedAtMs: T0 + 300_000,
    emulator: FIXTURE_EMULATOR,
    created: names.map((n) => `bench-filter-cost-fixture-${n}`),
    configurations: names.map((n, i) => configurationData(fixtureConfig, fixturePlan, n, i)),
  };
}

export function fixtureRunInfo(dirty = false): FilterCostRunInfo {
  return {
    setup: fixtureSetup(),
    finishedAtMs: T0 + 900_000,
    versions: {
      bench: '0.1.0',
      commit: 'abc123def456',
      dirty,
      built_at: null,
      runner: 'bench 0.1.0',
      node: 'v20.19.0',
    },
  };
}
