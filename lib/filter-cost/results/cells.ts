// handleSummary data -> one row per window (a cell at one consistency): requests, errors by status, success QPS,
// client percentiles with their 95 % intervals and the quantile grid they come from, server percentiles, returned
// rows, and the matches and recall setup() measured. Pure: reads only the keys of ../metric-keys.ts.
import { type Ms, readQueryCell } from '../../results/query-cell-figures';
import { metricValue, type SummaryData } from '../../results/summary-data';
import type { Consistency } from '../../turbopuffer-wire';
import { CONSISTENCIES, type QueryCell, type Shape } from '../cells';
import { cellKeys } from '../metric-keys';
import { GRID_PERCENTS, gridInterval, type QuantileGrid } from '../quantile-grid';
import type { LeafFilter } from '../selectivity';
import type { ConfigurationData } from '../setup-data';

/** [low, high] of a 95 % interval; a side the sample count cannot bound is null. */
export type Interval = [Ms, Ms];

export interface FilterCostCell {
  configuration: string;
  shape: Shape;
  consistency: Consistency;
  /** Share of rows the filter was designed to match (1 without a filter). */
  selectivity_target: number;
  /** Share it matched: the service's count over the rows written (1 without a filter; null: count failed). */
  selectivity_measured: number | null;
  filter: LeafFilter | null;
  /** Measured queries (warm-up left out). */
  requests: number;
  errors: number;
  /** Failed queries by status: "429", "4xx" (other client errors), "5xx", "0" (no response). */
  errors_by_status: Record<string, number>;
  /** Successful queries per second of the measured window. */
  qps: number;
  /** Client-side duration (k6 http_req_duration) of the successful queries, from latency_grid. */
  client_ms: { p50: Ms; p95: Ms; p99: Ms };
  /** 95 % distribution-free intervals of those percentiles, from the same grid. */
  client_ms_ci95: { p50: Interval; p95: Interval; p99: Interval };
  /** performance.server_total_ms of the successful queries. */
  server_ms: { p50: Ms; p95: Ms };
  /** Mean recall@10 of the probes at this consistency against exact kNN with the same filter; null: not measured. */
  recall_at_10: number | null;
  exhaustive_search_count_p50: number | null;
  returned_rows: { min: number | null; max: number | null };
  /** Latency from each query's intended start (arrival mode only). */
  from_intended_ms: { p50: Ms; p99: Ms } | null;
  /** Client latency of the successful queries at the percentiles of `latency_grid_percents` (ms, µs precision). */
  latency_grid: QuantileGrid | null;
}

const micro = (x: number) => Math.round(x * 1000) / 1000;

/** The window's client-latency grid from the summary data (null without a successful query). */
function readGrid(data: SummaryData, key: string): QuantileGrid | null {
  const n = metricValue(data, key, 'count') ?? 0;
  if (n === 0) return null;
  const stat = (s: string) => micro(metricValue(data, key, s) ?? Number.NaN);
  return { n, min: stat('min'), max: stat('max'), values: GRID_PERCENTS.map((p) => stat(`p(${p})`)) };
}

function percentiles(grid: QuantileGrid | null) {
  const at = (p: number) => (grid ? gridInterval(grid, p) : null);
  const [p50, p95, p99] = [at(0.5), at(0.95), at(0.99)];
  const interval = (i: ReturnType<typeof at>): Interval => [i?.low ?? null, i?.high ?? null];
  return {
    client_ms: { p50: p50?.estimate ?? null, p95: p95?.estimate ?? null, p99: p99?.estimate ?? null },
    client_ms_ci95: { p50: interval(p50), p95: interval(p95), p99: interval(p99) },
  };
}

export function buildCells(
  data: SummaryData,
  cells: readonly QueryCell[],
  configurations: readonly ConfigurationData[],
  run: { rows: number; measuredS: number; arrival: boolean },
): FilterCostCell[] {
  const byName = new Map(configurations.map((x) => [x.name, x]));
  const out: FilterCostCell[] = [];
  for (const cell of cells) {
    const setup = byName.get(cell.configuration);
    const matches = cell.filter === null ? run.rows : (setup?.matches[cell.selectivityTag] ?? null);
    for (const consistency of CONSISTENCIES) {
      const k = cellKeys(cell, consistency);
      const q = readQueryCell(data, k);
      const grid = readGrid(data, k.clientOk);
      out.push({
        configuration: cell.configuration,
        shape: cell.shape,
        consistency,
        selectivity_target: cell.selectivity,
        selectivity_measured: matches === null ? null : matches / run.rows,
        filter: cell.filter,
        requests: q.requests,
        errors: q.errors,
        errors_by_status: q.errors_by_status,
        qps: (q.requests - q.errors) / run.measuredS,
        ...percentiles(grid),
        server_ms: { p50: q.trend(k.server, 'med'), p95: q.trend(k.server, 'p(95)') },
        recall_at_10: setup?.recall[cell.id]?.[consistency]?.mean ?? null,
        exhaustive_search_count_p50: q.exhaustive_search_count.p50,
        returned_rows: { min: q.trend(k.returnedRows, 'min'), max: q.trend(k.returnedRows, 'max') },
        from_intended_ms: run.arrival ? q.from_intended_ms : null,
        latency_grid: grid,
      });
    }
  }
  return out;
}
