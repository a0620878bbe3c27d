// handleSummary data and setup() data of two short experiment-2 runs (the no-attribute baseline and int-100), shaped
// exactly like the sub-metric keys the script declares; values are made up. Used by the renderer golden tests.

import type { SummaryData, SummaryMetric } from '../../../results/summary-data';
import { planCells } from '../../cells';
import { type FilterCostConfig, readFilterCostConfig } from '../../config';
import { cellKeys } from '../../metric-keys';
import type { SetupData } from '../../setup-data';
import type { FilterCostRunInfo } from '../json';
import type { FilterCostManifest } from '../manifest';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

const SHARED = {
  ROWS: '1000',
  QUERY_RATE: '10',
  QUERY_DURATION_S: '5',
  QUERY_WARMUP_S: '1',
  RECALL_QUERIES: '4',
  SEED: '42',
  TURBOPUFFER_BASE_URL: 'http://127.0.0.1:8787',
};

export const baselineConfig: FilterCostConfig = readFilterCostConfig({ ...SHARED, ATTRIBUTE: 'none' });
export const int100Config: FilterCostConfig = readFilterCostConfig({
  ...SHARED,
  ATTRIBUTE: 'int',
  CARDINALITY: '100',
});

const trend = (med: number, p95: number, p99: number, min = med / 2, max = p99 * 1.5): SummaryMetric => ({
  type: 'trend',
  values: { avg: med, min, med, max, 'p(95)': p95, 'p(99)': p99, count: 50 },
});
const counter = (count: number): SummaryMetric => ({ type: 'counter', values: { count, rate: count / 5 } });

export function fixtureFilterCostSummary(c: FilterCostConfig, slower: number): SummaryData {
  const metrics: Record<string, SummaryMetric> = { dropped_iterations: counter(0) };
  planCells(c).cells.forEach((cell, i) => {
    const k = cellKeys(cell);
    const errors = cell.id === 'ann_range_10' ? 2 : 0;
    metrics[k.requests] = counter(50);
    metrics[k.failed] = { type: 'rate', values: { rate: errors / 50, passes: errors, fails: 50 - errors } };
    metrics[k.errors('429')] = counter(errors);
    metrics[k.clientOk] = trend(2 + i * 0.5 + slower, 4 + i + slower, 6 + i + slower);
    metrics[k.server] = trend(1 + i * 0.5, 2 + i, 3 + i);
    metrics[k.execution] = trend(0.5 + i * 0.5, 1 + i, 2 + i);
    metrics[k.fromIntended] = trend(3 + i, 5 + i, 8 + i);
    metrics[k.exhaustive] = trend(0, 0, 0, 0, 0);
    const billed = 256_000_000;
    metrics[k.billableQueried] = trend(billed, billed, billed, billed, billed);
    const rows = cell.expectedRows;
    metrics[k.returnedRows] = trend(rows, rows, rows, rows, rows);
  });
  return { metrics };
}

export function fixtureSetup(c: FilterCostConfig, drainS: number): SetupData {
  const bytesPerRow = c.attribute === 'none' ? 3080 : 3088;
  const recall: SetupData['recall'] = {};
  for (const cell of planCells(c).cells)
    if (cell.shape !== 'filter_ordered')
      recall[cell.id] = { queries: 4, mean: cell.matches < 20 ? 1 : 0.975, min: 0.9, failed: 0 };
  return {
    namespace: `bench-filter-cost-${c.label}-fixture`,
    seed: 42,
    startedAtMs: T0,
    created: true,
    ingest: {
      rows: 1000,
      requests: 1,
      request_bytes: 4_100_000,
      billable_bytes_written: 1000 * bytesPerRow,
      busy_s: 0.25,
      wall_s: 0.4,
      write_ms: { p50: 240, p95: 250, p99: 250, max: 250 },
      retries: 0,
      first_send_ms: T0 + 1000,
      last_ack_ms: T0 + 1400,
    },
    drain: {
      seconds: drainS,
      poll_ms: 250,
      curve: [
        { t_s: -0.2, unindexed_bytes: 1000 * bytesPerRow, approx_row_count: 0 },
        { t_s: drainS, unindexed_bytes: 0, approx_row_count: 1000 },
      ],
    },
    storage: { approx_logical_bytes: 1000 * bytesPerRow, approx_row_count: 1000 },
    recall,
  };
}

export function fixtureRunInfo(c: FilterCostConfig, drainS: number): FilterCostRunInfo {
  return {
    setup: fixtureSetup(c, drainS),
    finishedAtMs: T0 + 90_000,
    versions: { bench: '0.1.0', commit: 'abc1234', runner: 'bench 0.1.0', node: 'v20.19.0' },
  };
}

export const fixtureManifest: FilterCostManifest = {
  experiment: 'filter-cost',
  profile: 'fixture',
  description: 'two configurations',
  started_at: new Date(T0 - 5000).toISOString(),
  target: 'emulator',
  emulator_flags: [],
  env: { ROWS: '1000' },
  extra_args: [],
  cpus: 2,
  runs: ['none', 'int-100', 'none'].map((configuration, i) => ({
    configuration,
    repeat: configuration === 'none' && i === 2 ? 2 : 1,
    exit_code: 0,
    result: `${configuration}-${i}.json`,
    samples: null,
    started_at: new Date(T0 + i * 100_000).toISOString(),
    finished_at: new Date(T0 + i * 100_000 + 90_000).toISOString(),
    load_average: [1.5, 1.25],
  })),
};
