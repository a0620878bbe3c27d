// The study's result -> Markdown: the two published tables in their shape first, with the published numbers as a
// reference column, then ingest, drain and storage per configuration (with the run's baseline drift beside them),
// the filterable-vs-non-filterable storage delta, and every window in full. Pure.

import { formatBytes } from '../../../core/sizes';
import { formatBytesOrDash, formatMs, formatPercent, formatQps } from '../../results/format';
import {
  errorsByStatusMarkdown,
  outcomeMarkdown,
  runItemsMarkdown,
  statusMarkdown,
} from '../../results/run-sections';
import { markdownTable } from '../../results/table';
import type { Consistency } from '../../turbopuffer-wire';
import { dirtyTreeWarning } from '../../versions';
import type { Shape } from '../cells';
import { formatCount } from '../configurations';
import {
  PUBLISHED_CONDITIONS,
  PUBLISHED_FINDINGS,
  PUBLISHED_HEADLINE,
  PUBLISHED_SWEEP,
  type PublishedHeadlineRow,
} from '../published';
import type { FilterCostCell } from './cells';
import {
  formatRate,
  formatRatio,
  formatRecall,
  formatSeconds,
  formatShare,
  formatSignedPct,
  formatWithInterval,
  p95Text,
  SHAPE_LABEL,
} from './format';
import type { ConfigurationResult, FilterCostResult } from './json';

/** Finds one window of the result. */
export function findCell(
  r: Pick<FilterCostResult, 'cells'>,
  configuration: string,
  shape: Shape,
  selectivity: number,
  consistency: Consistency,
): FilterCostCell | undefined {
  return r.cells.find(
    (c) =>
      c.configuration === configuration &&
      c.shape === shape &&
      c.consistency === consistency &&
      Math.abs(c.selectivity_target - selectivity) < 1e-9,
  );
}

/** Mean ann_only p95 of the run's baselines at one consistency (the denominator of the headline ratios). */
export function baselineP95(r: FilterCostResult, consistency: Consistency): number | null {
  const values = r.configurations
    .filter((x) => x.attribute.type === 'none')
    .map((x) => findCell(r, x.name, 'ann_only', 1, consistency)?.client_ms.p95)
    .filter((v): v is number => typeof v === 'number');
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}

/** The swept configuration, or what the published study swept when this run swept none. */
export function sweepName(r: Pick<FilterCostResult, 'config'>): string {
  const name = String(r.config.SWEEP_CONFIGURATION);
  return name === 'none' ? 'int-10k (not swept in this run)' : name;
}

/** Published figures as printed there: one decimal. */
export const publishedMs = (ms: number) => `${ms.toFixed(1)}ms`;

const ratio = (x: number | null | undefined, base: number | null) =>
  x !== null && x !== undefined && base ? x / base : null;

function cardinalityText(x: ConfigurationResult, rows: number): string {
  const card = x.attribute.cardinality;
  if (card === null) return '—';
  return card === rows ? 'unique' : formatCount(card);
}

function headlineTable(r: FilterCostResult): string[] {
  const rows = Number(r.config.ROWS);
  const base = { strong: baselineP95(r, 'strong'), eventual: baselineP95(r, 'eventual') };
  const pubBase = PUBLISHED_HEADLINE[0];
  const pubText = (p: PublishedHeadlineRow, consistency: Consistency) => {
    const v = consistency === 'strong' ? p.strongP95Ms : p.eventualP95Ms;
    const b = consistency === 'strong' ? pubBase.strongP95Ms : pubBase.eventualP95Ms;
    return p === pubBase ? publishedMs(v) : `${publishedMs(v)} (${formatRatio(v / b)})`;
  };
  const ours = (cell: FilterCostCell | undefined, consistency: Consistency, isBase: boolean) => {
    if (!cell) return 'not run';
    const text = p95Text(cell);
    return isBase ? text : `${text} (${formatRatio(ratio(cell.client_ms.p95, base[consistency]))})`;
  };
  const out: string[][] = [];
  for (const p of PUBLISHED_HEADLINE) {
    const isBase = p.configuration === 'baseline';
    const matching = isBase
      ? r.configurations.filter((x) => x.attribute.type === 'none')
      : r.configurations.filter((x) => x.name === p.configuration);
    const row = (x: ConfigurationResult | undefined, label: string) => {
      const shape = isBase ? 'ann_only' : 'ann_filtered';
      const selectivity = isBase ? 1 : 0.01;
      const cell = (consistency: Consistency) =>
        x ? findCell(r, x.name, shape, selectivity, consistency) : undefined;
      out.push([
        label,
        isBase ? 'none' : (x?.attribute.type ?? p.configuration.split('-')[0]),
        x ? cardinalityText(x, rows) : (p.configuration.split('-')[1] ?? '—'),
        ours(cell('strong'), 'strong', isBase),
        ours(cell('eventual'), 'eventual', isBase),
        pubText(p, 'strong'),
        pubText(p, 'eventual'),
      ]);
    };
    if (matching.length === 0) row(undefined, isBase ? 'baseline (ann_only)' : p.configuration);
    for (const x of matching) row(x, isBase ? `${x.name} (ann_only)` : x.name);
  }
  return markdownTable(
    ['Cell', 'Type', 'Cardinality', 'Strong p95', 'Eventual p95', 'Published strong', 'Published eventual'],
    out,
  );
}

function sweepTable(r: FilterCostResult): string[] {
  const sweep = String(r.config.SWEEP_CONFIGURATION);
  const ran = r.cells.some((c) => c.configuration === sweep);
  return markdownTable(
    [
      'Selectivity',
      'Measured',
      'ann_filtered strong p95',
      'filter_ordered strong p95',
      'Published ann_filtered',
      'Published filter_ordered',
    ],
    PUBLISHED_SWEEP.map((p) => {
      const fraction = Number(p.selectivity) / 100;
      const af = ran ? findCell(r, sweep, 'ann_filtered', fraction, 'strong') : undefined;
      const fo = ran ? findCell(r, sweep, 'filter_ordered', fraction, 'strong') : undefined;
      return [
        `${p.selectivity}%`,
        formatShare(af?.selectivity_measured ?? null),
        p95Text(af),
        p95Text(fo),
        publishedMs(p.annFilteredStrongP95Ms),
        publishedMs(p.filterOrderedStrongP95Ms),
      ];
    }),
  );
}

function ingestTable(r: FilterCostResult): string[] {
  const rows = Number(r.config.ROWS);
  return markdownTable(
    [
      'Configuration',
      'Attribute',
      'Wall',
      'Rows/s',
      'MB/s',
      `vs baseline mean (drift ${formatSignedPct(r.drift_pct)})`,
      '429 retries',
      'Peak backlog',
      'Drain',
      'Logical bytes',
      'Billable written',
    ],
    r.configurations.map((x) => [
      x.name,
      x.attribute.type === 'none'
        ? 'none'
        : `${x.attribute.type}, ${cardinalityText(x, rows)}${x.attribute.filterable ? '' : ', not filterable'}`,
      formatSeconds(x.ingest.wall_s),
      formatRate(x.ingest.rows_per_s),
      x.ingest.mb_per_s === null ? '—' : x.ingest.mb_per_s.toFixed(1),
      formatSignedPct(x.ingest.vs_baseline_mean_pct),
      String(x.ingest.retries_429),
      formatBytesOrDash(x.drain.peak_unindexed_bytes),
      formatSeconds(x.drain.duration_s),
      formatBytesOrDash(x.storage.approx_logical_bytes),
      formatBytes(x.storage.billing.billable_logical_bytes_written),
    ]),
  );
}

function filterableTable(r: FilterCostResult): string[] {
  if (r.filterable_deltas.length === 0) return ['No configuration ran beside its `-unfiltered` twin.'];
  const published = (name: string) => {
    const type = name.split('-')[0] as 'int' | 'string';
    return name.endsWith('-10k') ? formatBytes(PUBLISHED_FINDINGS.filterableDeltaBytes[type]) : '—';
  };
  return markdownTable(
    ['Filterable', 'Twin', 'Logical bytes added', 'Billable bytes written added', 'Published (1M rows)'],
    r.filterable_deltas.map((d) => [
      d.filterable,
      d.unfiltered,
      d.logical_bytes === null ? '—' : formatBytes(d.logical_bytes),
      formatBytes(d.billable_bytes_written),
      published(d.filterable),
    ]),
  );
}

function cellsTable(r: FilterCostResult): string[] {
  return markdownTable(
    [
      'Configuration',
      'Shape',
      'Selectivity (measured)',
      'Consistency',
      'Requests',
      'Errors',
      'QPS',
      'Client p50',
      'p95',
      'p99',
      'Server p50',
      'p95',
      'Recall@10',
    ],
    r.cells.map((c) => [
      c.configuration,
      SHAPE_LABEL[c.shape],
      c.filter === null
        ? '100% (no filter)'
        : `${formatShare(c.selectivity_target)} (${formatShare(c.selectivity_measured)})`,
      c.consistency,
      String(c.requests),
      formatPercent(c.requests > 0 ? c.errors / c.requests : 0),
      formatQps(c.qps),
      formatWithInterval(c.client_ms.p50, c.client_ms_ci95.p50),
      formatWithInterval(c.client_ms.p95, c.client_ms_ci95.p95),
      formatWithInterval(c.client_ms.p99, c.client_ms_ci95.p99),
      formatMs(c.server_ms.p50),
      formatMs(c.server_ms.p95),
      formatRecall(c.recall_at_10),
    ]),
  );
}

export function renderFilterCostMarkdown(r: FilterCostResult): string {
  const c = r.config;
  const dirty = dirtyTreeWarning(r.versions);
  const load =
    c.QUERY_MODE === 'workers'
      ? `${c.QUERY_WORKERS} closed-loop workers`
      : `${c.QUERY_RATE} queries/s (constant arrival rate)`;
  const lines: string[] = [
    ...statusMarkdown(r),
    ...(dirty ? [`**${dirty}**`, ''] : []),
    `# Experiment 2: filterable-attribute cost, ${r.configurations.length} configurations of ${c.ROWS} rows`,
    '',
    ...runItemsMarkdown(r),
    `- Data: ${c.ROWS} rows of ${c.DIMS}-d f32 vectors per namespace (\`${r.namespace_prefix}-<configuration>\`), ` +
      `one attribute \`attr\`; seed ${c.SEED}`,
    `- Queries: ${load}, top_k ${c.TOP_K}; each cell at strong then eventual consistency, ${c.QUERY_DURATION_S} s ` +
      `measured after ${c.QUERY_WARMUP_S} s of warm-up per consistency, the same query vectors in both`,
    `- Published reference: ${PUBLISHED_CONDITIONS}`,
    '',
    '## Filtered p95 at 1% against the ann_only baseline',
    '',
    ...headlineTable(r),
    '',
    'Client p95 of the successful queries with its 95% interval; (×n) is the ratio to the mean ann_only p95 of the ' +
      'baselines (ours) or to the published baseline. Cardinality 2 is left out, as published: its smallest ' +
      'filter matches 50%.',
    '',
    `## Selectivity sweep on ${sweepName(r)}, strong consistency`,
    '',
    ...sweepTable(r),
    '',
    '## Ingest, drain and storage',
    '',
    ...ingestTable(r),
    '',
    `Wall: first write's body generation to the last acknowledgement (${c.WRITE_CONCURRENCY} requests of ` +
      `${c.WRITE_BATCH_ROWS} rows in flight; 429 waits included). MB/s: request JSON. Drift: the last baseline's ` +
      `rows/s against the first's (published: ${formatSignedPct(PUBLISHED_FINDINGS.ingestDriftPct)}). Peak backlog: ` +
      `the largest \`index.unindexed_bytes\` of every metadata poll; drain: last acknowledgement to the first poll ` +
      `that found every row indexed, polled every ${c.POLL_INTERVAL_S} s (published peaks: ` +
      `${formatBytes(PUBLISHED_FINDINGS.peakBacklogBytes.min)} to ${formatBytes(PUBLISHED_FINDINGS.peakBacklogBytes.max)}). ` +
      "Logical bytes: `approx_logical_bytes` once indexed; billable written: the write responses' " +
      '`billing.billable_logical_bytes_written`.',
    '',
    '## Filterable against non-filterable',
    '',
    ...filterableTable(r),
    '',
    '## Every cell',
    '',
    ...cellsTable(r),
    '',
    'Brackets: distribution-free 95% intervals of the percentile (order statistics), read with the estimate from ' +
      'the same latency grid of the JSON (`latency_grid`, 1% steps, finer tails), bounds rounded outward to the ' +
      'grid; `?` = too few samples to bound that side. QPS: successful queries per measured second. Selectivity: ' +
      'the share of rows the filter was designed to match (the share the service counted). Recall@10: probes ' +
      `against exact kNN with the same filter (${c.RECALL_QUERIES} per cell and consistency).`,
    ...errorsByStatusMarkdown(
      r.cells,
      (x) => `${x.configuration} ${x.shape} ${formatShare(x.selectivity_target)} ${x.consistency}`,
    ),
  ];
  if (r.unreachable.length > 0) {
    lines.push('', 'Cells the value design cannot build (no cell):', '');
    for (const u of r.unreachable) lines.push(`- ${u.configuration} at ${u.selectivityTag}%: ${u.reason}`);
  }
  lines.push('', ...outcomeMarkdown(r));
  return `${lines.join('\n')}\n`;
}
