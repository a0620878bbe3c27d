// The study's result -> the end-of-test console summary: the two published tables (ours beside the published p95),
// one ingest line, the threshold outcome and where the files went. The Markdown has every window. Pure.
import { consoleSummary } from '../../results/run-sections';
import { textTable } from '../../results/table';
import { PUBLISHED_HEADLINE, PUBLISHED_SWEEP } from '../published';
import { formatRate, formatSignedPct, p95Text } from './format';
import type { FilterCostResult } from './json';
import { findCell, publishedMs, sweepName } from './markdown';

export function renderFilterCostText(r: FilterCostResult, files: string[]): string {
  const headline: string[][] = [];
  for (const p of PUBLISHED_HEADLINE) {
    const names =
      p.configuration === 'baseline'
        ? r.configurations.filter((x) => x.attribute.type === 'none').map((x) => x.name)
        : [p.configuration];
    for (const name of names) {
      const [shape, sel] =
        p.configuration === 'baseline' ? (['ann_only', 1] as const) : (['ann_filtered', 0.01] as const);
      headline.push([
        name,
        p95Text(findCell(r, name, shape, sel, 'strong')),
        p95Text(findCell(r, name, shape, sel, 'eventual')),
        publishedMs(p.strongP95Ms),
        publishedMs(p.eventualP95Ms),
      ]);
    }
  }
  const sweep = String(r.config.SWEEP_CONFIGURATION);
  const sweepRows = PUBLISHED_SWEEP.map((p) => {
    const f = Number(p.selectivity) / 100;
    return [
      `${p.selectivity}%`,
      p95Text(findCell(r, sweep, 'ann_filtered', f, 'strong')),
      p95Text(findCell(r, sweep, 'filter_ordered', f, 'strong')),
      publishedMs(p.annFilteredStrongP95Ms),
      publishedMs(p.filterOrderedStrongP95Ms),
    ];
  });
  const rates = r.configurations.map((x) => x.ingest.rows_per_s ?? 0);
  const heading = [
    `  ${r.configurations.length} configurations ingested at ${formatRate(Math.min(...rates))}–` +
      `${formatRate(Math.max(...rates))} rows/s; baseline drift ${formatSignedPct(r.drift_pct)}`,
  ];
  const table = [
    '  filtered p95 at 1% (baselines: ann_only), ours [95% interval] and published',
    ...textTable(['cell', 'strong p95', 'eventual p95', 'published strong', 'published eventual'], headline),
    '',
    `  selectivity sweep on ${sweepName(r)}, strong p95`,
    ...textTable(
      ['selectivity', 'ann_filtered', 'filter_ordered', 'published ann_filtered', 'published filter_ordered'],
      sweepRows,
    ),
  ];
  return consoleSummary(r, 'filter-cost study', `namespaces ${r.namespace_prefix}-*`, heading, table, files);
}
