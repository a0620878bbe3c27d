// What `bench compare` compares, read the same way from either experiment's result (or the published tables): per
// cell, the client percentiles with whatever the result keeps to judge a change (experiment 2's 95 % intervals,
// experiment 1's per-bucket percentiles over the cell's window), the request and error counts and the success QPS.
// Pure.
import type { BacklogReportInput } from '../../lib/backlog/charts';
import { PUBLISHED_BACKLOG } from '../../lib/backlog/published';
import type { FilterCostReportInput } from '../../lib/filter-cost/charts';
import { PUBLISHED_HEADLINE, PUBLISHED_SWEEP } from '../../lib/filter-cost/published';
import { formatPercentTag } from '../../lib/filter-cost/selectivity';
import type { KnownResult } from '../result-report';

export const PERCENTILES = ['p50', 'p95', 'p99'] as const;
export type Percentile = (typeof PERCENTILES)[number];

export interface ComparableCell {
  /** Identity across runs: `idle/strong`, `int-10k/ann_filtered/1/eventual`. */
  key: string;
  client: Record<Percentile, number | null>;
  /** 95 % intervals of the percentiles (experiment 2). */
  ci?: Record<Percentile, [number | null, number | null]>;
  /** The percentile of every time-series bucket inside the cell's measured window (experiment 1 with a series). */
  buckets?: Record<Percentile, number[]>;
  /** null where the source keeps no counts (the published tables). */
  requests: number | null;
  errors: number | null;
  /** Share of the cell's queries that failed (known even where the counts are not). */
  errorRate: number | null;
  /** Successful queries per second, and the window they were counted over. */
  successQps: number | null;
  windowS: number | null;
}

export type ExperimentName = KnownResult['experiment'];

function backlogCells(r: BacklogReportInput): ComparableCell[] {
  const s = r.series;
  return r.cells.map((c): ComparableCell => {
    const key = `${c.phase}/${c.consistency}`;
    const windowS = c.qps > 0 ? c.requests / c.qps : null;
    const cell: ComparableCell = {
      key,
      client: { p50: c.client_ms.p50, p95: c.client_ms.p95, p99: c.client_ms.p99 },
      requests: c.requests,
      errors: c.errors,
      errorRate: c.requests > 0 ? c.errors / c.requests : null,
      successQps: windowS ? (c.requests - c.errors) / windowS : null,
      windowS,
    };
    const w = s?.windows.find((x) => x.kind === 'cell' && x.label === key);
    const q = s?.queries[c.consistency];
    if (s && w && q) {
      const inside = q.t_s.flatMap((t, i) => (t >= w.start_s && t + s.interval_s <= w.end_s ? [i] : []));
      const values = (col: (number | null)[]) =>
        inside.map((i) => col[i]).filter((v): v is number => v !== null);
      cell.buckets = {
        p50: values(q.client_ms.p50),
        p95: values(q.client_ms.p95),
        p99: values(q.client_ms.p99),
      };
    }
    return cell;
  });
}

function filterCostKey(configuration: string, shape: string, fraction: number, consistency: string): string {
  return `${configuration}/${shape}/${formatPercentTag(fraction)}/${consistency}`;
}

function filterCostCells(r: FilterCostReportInput): ComparableCell[] {
  return r.cells.map((c) => {
    const successes = c.requests - c.errors;
    return {
      key: filterCostKey(c.configuration, c.shape, c.selectivity_target, c.consistency),
      client: { p50: c.client_ms.p50, p95: c.client_ms.p95, p99: c.client_ms.p99 },
      ci: { p50: c.client_ms_ci95.p50, p95: c.client_ms_ci95.p95, p99: c.client_ms_ci95.p99 },
      requests: c.requests,
      errors: c.errors,
      errorRate: c.requests > 0 ? c.errors / c.requests : null,
      successQps: c.qps,
      windowS: c.qps > 0 ? successes / c.qps : null,
    };
  });
}

export function comparableCells(r: KnownResult): ComparableCell[] {
  return r.experiment === 'backlog' ? backlogCells(r.result) : filterCostCells(r.result);
}

const published = (key: string, client: Partial<Record<Percentile, number>>, errorRate: number | null) => ({
  key,
  client: { p50: client.p50 ?? null, p95: client.p95 ?? null, p99: client.p99 ?? null },
  requests: null,
  errors: null,
  errorRate,
  successQps: null,
  windowS: null,
});

/**
 * The published tables as cells of a run: experiment 1's whole table; experiment 2's headline (filtered p95 at 1 %,
 * the baseline row standing for every baseline configuration of `like`) and its sweep on int-10k (strong p95).
 */
export function publishedCells(
  experiment: ExperimentName,
  like: readonly ComparableCell[],
): ComparableCell[] {
  if (experiment === 'backlog')
    return PUBLISHED_BACKLOG.map((row) =>
      published(`${row.phase}/${row.consistency}`, row.clientMs, row.errorRate),
    );
  const out: ComparableCell[] = [];
  const baselines = [
    ...new Set(
      like
        .map((c) => c.key.split('/')[0])
        .filter((name) => name === 'baseline' || name.startsWith('baseline-')),
    ),
  ];
  for (const row of PUBLISHED_HEADLINE) {
    const names = row.configuration === 'baseline' ? baselines : [row.configuration];
    const shape = row.configuration === 'baseline' ? 'ann_only' : 'ann_filtered';
    const fraction = row.configuration === 'baseline' ? 1 : 0.01;
    for (const name of names) {
      out.push(published(filterCostKey(name, shape, fraction, 'strong'), { p95: row.strongP95Ms }, 0));
      out.push(published(filterCostKey(name, shape, fraction, 'eventual'), { p95: row.eventualP95Ms }, 0));
    }
  }
  for (const row of PUBLISHED_SWEEP) {
    const fraction = Number(row.selectivity) / 100;
    if (row.selectivity !== '1')
      out.push(
        published(
          filterCostKey('int-10k', 'ann_filtered', fraction, 'strong'),
          { p95: row.annFilteredStrongP95Ms },
          0,
        ),
      );
    out.push(
      published(
        filterCostKey('int-10k', 'filter_ordered', fraction, 'strong'),
        { p95: row.filterOrderedStrongP95Ms },
        0,
      ),
    );
  }
  return out;
}
