// The merged report -> Markdown: ingest/drain/storage with differences against the baseline, the three query
// shapes, the selectivity sweep (p50 with recall, then p99), repeats and the run list. Pure.

import { formatFixed, formatMs } from '../../results/format';
import { markdownTable } from '../../results/table';
import { formatRate, formatRecall, formatSeconds, SHAPE_LABEL } from './format';
import type { CellSummary, ConfigurationSummary, FilterCostReport, Stat } from './report';

/** The median, with the range when there were several repeats. */
function statText(s: Stat, format: (x: number | null) => string): string {
  if (s.n <= 1) return format(s.median);
  return `${format(s.median)} (${format(s.min)}–${format(s.max)}, n=${s.n})`;
}

function ciText(ci: [number | null, number | null] | null): string {
  if (!ci) return '';
  const side = (x: number | null) => (x === null ? '?' : formatMs(x).replace('ms', ''));
  return ` [${side(ci[0])}–${side(ci[1])}]`;
}

const signed = (x: number | null, digits: number, unit = '') =>
  x === null ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}${unit}`;
const times = (x: number | null) => (x === null ? '—' : `×${x.toFixed(2)}`);
const oneDecimal = (x: number | null) => formatFixed(x, 1);

function attributeText(s: ConfigurationSummary, rows: unknown): string {
  const a = s.attribute;
  if (a.type === null) return 'none';
  const card = a.cardinality === rows ? 'unique' : String(a.cardinality);
  return `${a.type}, ${card}${a.filterable ? '' : ', filterable: false'}`;
}

function latency(cell: CellSummary, which: 'p50' | 'p99'): string {
  const s = which === 'p50' ? cell.client_p50_ms : cell.client_p99_ms;
  return `${statText(s, formatMs)}${ciText(which === 'p50' ? cell.client_p50_ci : cell.client_p99_ci)}`;
}

function sweepColumns(r: FilterCostReport): string[] {
  const tags = new Set<string>();
  for (const s of r.configurations) {
    for (const c of s.cells) if (c.shape === 'ann_range') tags.add(c.selectivity_pct);
    for (const u of s.unreachable) tags.add(u.selectivity);
  }
  return [...tags].sort((a, b) => Number(a) - Number(b));
}

function sweepTable(r: FilterCostReport, cellText: (cell: CellSummary) => string): string[] {
  const columns = sweepColumns(r);
  const withSweep = r.configurations.filter((s) => s.cells.some((c) => c.shape === 'ann_range'));
  return markdownTable(
    ['Configuration', ...columns.map((t) => `${t}%`)],
    withSweep.map((s) => [
      s.configuration,
      ...columns.map((tag) => {
        const cell = s.cells.find((c) => c.shape === 'ann_range' && c.selectivity_pct === tag);
        if (cell) return cellText(cell);
        return s.unreachable.some((u) => u.selectivity === tag) ? 'n/r' : '—';
      }),
    ]),
  );
}

export function renderReportMarkdown(r: FilterCostReport): string {
  const c = r.config ?? {};
  const k = c.TOP_K ?? 10;
  const base = r.baseline;
  const lines: string[] = [
    `# Experiment 2: filterable-attribute cost (${r.profile} profile, ${r.configurations.length} configurations)`,
    '',
    `- Target: ${r.target}; started ${r.started_at}; bench ${r.versions?.bench ?? '?'} (commit ${r.versions?.commit ?? '?'}), ` +
      `runner ${r.versions?.runner ?? '?'}`,
    `- Data per namespace: ${c.ROWS} rows of ${c.DIMS}-d f32 vectors plus one attribute \`attr\` (ints, or 8-byte ` +
      'strings `v0000042`), written with upsert_columns',
    `- Queries per cell: ${c.QUERY_RATE}/s (constant arrival rate), ${c.QUERY_DURATION_S} s measured after ` +
      `${c.QUERY_WARMUP_S} s warm-up, top_k ${k}, ${c.CONSISTENCY} consistency, once the namespace was indexed; ` +
      `recall@${k} from ${c.RECALL_QUERIES} probes per cell against exact kNN with the same filter`,
    `- Each configuration is its own namespace and \`bench run\`; "vs ${base ?? 'baseline'}" compares with the ` +
      'configuration without an attribute measured in the same run.',
    '',
    '## Ingest, drain and storage',
    '',
    ...markdownTable(
      [
        'Configuration',
        'Attribute',
        'Ingest rows/s',
        `vs ${base}`,
        'Billable B/row',
        `vs ${base}`,
        'Logical B/row',
        'Drain',
        `vs ${base}`,
      ],
      r.configurations.map((s) => [
        s.configuration,
        attributeText(s, c.ROWS),
        statText(s.ingest_rows_per_s, formatRate),
        times(s.vs_baseline?.rows_per_s_ratio ?? null),
        statText(s.billable_bytes_per_row, oneDecimal),
        signed(s.vs_baseline?.billable_bytes_per_row_delta ?? null, 1),
        statText(s.logical_bytes_per_row, oneDecimal),
        statText(s.drain_s, formatSeconds),
        signed(s.vs_baseline?.drain_s_delta ?? null, 2, ' s'),
      ]),
    ),
    '',
    'Ingest rows/s: acknowledged rows per second with write requests in flight. Billable B/row: ' +
      '`billing.billable_logical_bytes_written` per row; logical B/row: `approx_logical_bytes / approx_row_count` ' +
      'once indexed. Drain: last acknowledged write to the first metadata reading that said up-to-date.',
    '',
    '## Query shapes',
    '',
    ...markdownTable(
      [
        'Configuration',
        'Shape',
        'Selectivity',
        'Matches',
        'Requests',
        'Errors',
        'Client p50 [95% CI]',
        'Client p99 [95% CI]',
        'Server p50',
        `Recall@${k}`,
      ],
      r.configurations.flatMap((s) =>
        s.cells
          .filter((cell) => cell.shape !== 'ann_range')
          .map((cell) => [
            s.configuration,
            SHAPE_LABEL[cell.shape],
            `${cell.selectivity_pct}%`,
            String(cell.matches),
            String(cell.requests),
            String(cell.errors),
            latency(cell, 'p50'),
            latency(cell, 'p99'),
            statText(cell.server_p50_ms, formatMs),
            statText(cell.recall, formatRecall),
          ]),
      ),
    ),
    '',
    'Latencies are client-side (`http_req_duration` of successful queries); brackets are distribution-free 95% ' +
      'intervals from the raw samples (order statistics; `?` = too few samples to bound that side).',
    '',
    '## Selectivity sweep (ANN + range filter): client p50 [95% CI] · recall',
    '',
    ...sweepTable(r, (cell) => `${latency(cell, 'p50')} · ${statText(cell.recall, formatRecall)}`),
    '',
    '## Selectivity sweep: client p99 [95% CI]',
    '',
    ...sweepTable(r, (cell) => latency(cell, 'p99')),
    '',
    'Selectivity is the share of rows the filter matches. n/r: the cardinality cannot match that share exactly ' +
      '(e.g. 2 values reach only 50% and 100%).',
  ];
  const repeated = r.configurations.filter((s) => s.repeats > 1);
  if (repeated.length > 0) {
    lines.push('', '## Repeats', '');
    for (const s of repeated) {
      const annOnly = s.cells.find((cell) => cell.id === 'ann_only');
      lines.push(
        `- ${s.configuration} ran ${s.repeats} times: ingest ${statText(s.ingest_rows_per_s, formatRate)} rows/s, ` +
          `drain ${statText(s.drain_s, formatSeconds)}` +
          (annOnly ? `, ANN p50 ${statText(annOnly.client_p50_ms, formatMs)}` : ''),
      );
    }
  }
  lines.push(
    '',
    '## Runs',
    '',
    ...markdownTable(
      ['#', 'Configuration', 'Run of it', 'Exit', 'Load avg (start → end)', 'Result'],
      r.runs.map((run, i) => [
        String(i + 1),
        run.configuration,
        // Counted here rather than read from runs.json, whose older files numbered only --repeats.
        String(r.runs.slice(0, i + 1).filter((x) => x.configuration === run.configuration).length),
        String(run.exit_code),
        `${run.load_average[0]} → ${run.load_average[1]}`,
        run.result ?? '—',
      ]),
    ),
  );
  const failed = r.configurations.filter((s) => !s.passed).map((s) => s.configuration);
  lines.push(
    '',
    failed.length === 0
      ? 'Every run passed its thresholds (each cell measured, no errors, exact row counts, no dropped iterations).'
      : `Runs that did not pass: ${failed.join(', ')} (see their result files).`,
  );
  return `${lines.join('\n')}\n`;
}
