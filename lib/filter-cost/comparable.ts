// Experiment 2's cells as `bench compare` reads them: per configuration, shape, selectivity and consistency, the
// client percentiles with their 95 % intervals, counts and success QPS; and the published headline and sweep as
// cells (the baseline row standing for every baseline configuration of the run compared). Pure.
import { type ComparableCell, publishedCell } from '../experiment';
import type { FilterCostReportInput } from './charts';
import { PUBLISHED_HEADLINE, PUBLISHED_SWEEP } from './published';
import { formatPercentTag } from './selectivity';

function filterCostKey(configuration: string, shape: string, fraction: number, consistency: string): string {
  return `${configuration}/${shape}/${formatPercentTag(fraction)}/${consistency}`;
}

export function filterCostCells(r: FilterCostReportInput): ComparableCell[] {
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

/** The published headline (filtered p95 at 1 %) and sweep on int-10k (strong p95) as cells shaped like `like`. */
export function publishedFilterCostCells(like: readonly ComparableCell[]): ComparableCell[] {
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
      out.push(publishedCell(filterCostKey(name, shape, fraction, 'strong'), { p95: row.strongP95Ms }, 0));
      out.push(
        publishedCell(filterCostKey(name, shape, fraction, 'eventual'), { p95: row.eventualP95Ms }, 0),
      );
    }
  }
  for (const row of PUBLISHED_SWEEP) {
    const fraction = Number(row.selectivity) / 100;
    if (row.selectivity !== '1')
      out.push(
        publishedCell(
          filterCostKey('int-10k', 'ann_filtered', fraction, 'strong'),
          { p95: row.annFilteredStrongP95Ms },
          0,
        ),
      );
    out.push(
      publishedCell(
        filterCostKey('int-10k', 'filter_ordered', fraction, 'strong'),
        { p95: row.filterOrderedStrongP95Ms },
        0,
      ),
    );
  }
  return out;
}
