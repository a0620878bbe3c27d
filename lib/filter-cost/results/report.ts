// The merged report of one `make filter-cost` run: every configuration's ingest, drain, storage and query figures
// side by side, each cost stated as a difference against the `none` baseline measured in the same run, latency
// percentiles with distribution-free 95% intervals from the raw samples, and repeats summarised as median and
// range. Pure: the report script reads the files and hands them in.

import type { Versions } from '../../versions';
import type { QuantileInterval } from '../quantile-ci';
import type { FilterCostCell } from './cells';
import type { FilterCostResult } from './json';
import type { FilterCostManifest } from './manifest';

/** Median and range of one figure over a configuration's repeats. */
export interface Stat {
  median: number | null;
  min: number | null;
  max: number | null;
  n: number;
}

export interface CellIntervals {
  p50: QuantileInterval;
  p99: QuantileInterval;
}

/** Pooled raw-sample intervals by configuration, then cell id. */
export type IntervalsByConfiguration = Record<string, Record<string, CellIntervals>>;

export interface CellSummary {
  id: string;
  shape: FilterCostCell['shape'];
  selectivity_pct: string;
  matches: number;
  requests: number;
  errors: number;
  client_p50_ms: Stat;
  client_p99_ms: Stat;
  server_p50_ms: Stat;
  /** From the pooled raw samples of every repeat; null without samples. */
  client_p50_ci: [number | null, number | null] | null;
  client_p99_ci: [number | null, number | null] | null;
  samples: number | null;
  recall: Stat;
}

export interface ConfigurationSummary {
  configuration: string;
  attribute: FilterCostResult['attribute'];
  repeats: number;
  /** Every repeat exited with all thresholds passed. */
  passed: boolean;
  ingest_rows_per_s: Stat;
  request_mb_per_s: Stat;
  billable_bytes_per_row: Stat;
  logical_bytes_per_row: Stat;
  drain_s: Stat;
  /** Differences against the `none` baseline of the same run (null for the baseline itself or without one). */
  vs_baseline: {
    rows_per_s_ratio: number | null;
    billable_bytes_per_row_delta: number | null;
    logical_bytes_per_row_delta: number | null;
    drain_s_delta: number | null;
    ann_only_p50_ratio: number | null;
  } | null;
  cells: CellSummary[];
  unreachable: FilterCostResult['unreachable'];
}

export interface FilterCostReport {
  experiment: 'filter-cost';
  profile: string;
  started_at: string;
  target: FilterCostManifest['target'];
  /** Knobs of the first result (every configuration shares all but ATTRIBUTE, CARDINALITY, FILTERABLE, SEED). */
  config: FilterCostResult['config'] | null;
  versions: Versions | null;
  baseline: string | null;
  configurations: ConfigurationSummary[];
  runs: FilterCostManifest['runs'];
}

export const BASELINE = 'none';

export function stat(values: readonly (number | null | undefined)[]): Stat {
  const xs = values
    .filter((v): v is number => typeof v === 'number' && Number.isFinite(v))
    .sort((a, b) => a - b);
  if (xs.length === 0) return { median: null, min: null, max: null, n: 0 };
  const mid = xs.length >> 1;
  const median = xs.length % 2 === 1 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
  return { median, min: xs[0], max: xs[xs.length - 1], n: xs.length };
}

const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && b !== 0 ? a / b : null);
const delta = (a: number | null, b: number | null) => (a !== null && b !== null ? a - b : null);

function summarizeCells(
  results: FilterCostResult[],
  intervals: Record<string, CellIntervals>,
): CellSummary[] {
  const ids = results[0].cells.map((c) => c.id);
  return ids.map((id) => {
    const cells = results
      .map((r) => r.cells.find((c) => c.id === id))
      .filter((c): c is FilterCostCell => !!c);
    const first = cells[0];
    const ci = intervals[id];
    return {
      id,
      shape: first.shape,
      selectivity_pct: first.selectivity_pct,
      matches: first.matches,
      requests: cells.reduce((s, c) => s + c.requests, 0),
      errors: cells.reduce((s, c) => s + c.errors, 0),
      client_p50_ms: stat(cells.map((c) => c.client_ms.p50)),
      client_p99_ms: stat(cells.map((c) => c.client_ms.p99)),
      server_p50_ms: stat(cells.map((c) => c.server_ms.p50)),
      client_p50_ci: ci ? [ci.p50.low, ci.p50.high] : null,
      client_p99_ci: ci ? [ci.p99.low, ci.p99.high] : null,
      samples: ci ? ci.p50.samples : null,
      recall: stat(cells.map((c) => c.recall?.mean)),
    };
  });
}

function summarize(
  configuration: string,
  results: FilterCostResult[],
  intervals: Record<string, CellIntervals>,
  passed: boolean,
): ConfigurationSummary {
  return {
    configuration,
    attribute: results[0].attribute,
    repeats: results.length,
    passed,
    ingest_rows_per_s: stat(results.map((r) => r.ingest.rows_per_s)),
    request_mb_per_s: stat(results.map((r) => r.ingest.request_mb_per_s)),
    billable_bytes_per_row: stat(
      results.map((r) => (r.ingest.rows > 0 ? r.ingest.billable_bytes_written / r.ingest.rows : null)),
    ),
    logical_bytes_per_row: stat(results.map((r) => r.storage.bytes_per_row)),
    drain_s: stat(results.map((r) => r.drain.seconds)),
    vs_baseline: null,
    cells: summarizeCells(results, intervals),
    unreachable: results[0].unreachable,
  };
}

export function buildReport(
  manifest: FilterCostManifest,
  results: readonly FilterCostResult[],
  intervals: IntervalsByConfiguration,
): FilterCostReport {
  const order: string[] = [];
  const byConfiguration = new Map<string, FilterCostResult[]>();
  for (const r of results) {
    if (!byConfiguration.has(r.configuration)) {
      order.push(r.configuration);
      byConfiguration.set(r.configuration, []);
    }
    byConfiguration.get(r.configuration)?.push(r);
  }
  const passed = (label: string) =>
    manifest.runs.filter((run) => run.configuration === label).every((run) => run.exit_code === 0);
  const summaries = order.map((label) =>
    summarize(label, byConfiguration.get(label) ?? [], intervals[label] ?? {}, passed(label)),
  );
  const base = summaries.find((s) => s.configuration === BASELINE) ?? null;
  if (base) {
    const annOnly = (s: ConfigurationSummary) =>
      s.cells.find((c) => c.id === 'ann_only')?.client_p50_ms.median ?? null;
    for (const s of summaries) {
      if (s === base) continue;
      s.vs_baseline = {
        rows_per_s_ratio: ratio(s.ingest_rows_per_s.median, base.ingest_rows_per_s.median),
        billable_bytes_per_row_delta: delta(
          s.billable_bytes_per_row.median,
          base.billable_bytes_per_row.median,
        ),
        logical_bytes_per_row_delta: delta(s.logical_bytes_per_row.median, base.logical_bytes_per_row.median),
        drain_s_delta: delta(s.drain_s.median, base.drain_s.median),
        ann_only_p50_ratio: ratio(annOnly(s), annOnly(base)),
      };
    }
  }
  return {
    experiment: 'filter-cost',
    profile: manifest.profile,
    started_at: manifest.started_at,
    target: manifest.target,
    config: results[0]?.config ?? null,
    versions: results[0]?.versions ?? null,
    baseline: base ? BASELINE : null,
    configurations: summaries,
    runs: manifest.runs,
  };
}
