// Experiment 1's result -> its Markdown report: the published table's columns plus requests, QPS and the backlog
// at the window edges, then the run's target, scale and threshold outcome. Pure (handleSummary writes the string).

import { formatBytes } from '../../../core/sizes';
import {
  formatBytesOrDash,
  formatFixed,
  formatMs,
  formatPercent,
  formatQps,
  roundedFixed,
} from '../../results/format';
import {
  errorsByStatusMarkdown,
  outcomeMarkdown,
  runItemsMarkdown,
  statusMarkdown,
} from '../../results/run-sections';
import { markdownTable } from '../../results/table';
import type { PhaseName } from '../phases';
import type { Cell } from './cells';
import type { BacklogResult } from './json';

const HEADER = [
  'Phase',
  'Consistency',
  'Requests',
  'QPS',
  'Errors',
  'Client p50',
  'p95',
  'p99',
  'Server p50',
  'p95',
  'Backlog start',
  'Backlog end',
];

/** The row label of the published table, with this run's windows (they differ from 2 GiB on scaled runs). */
function phaseLabel(phase: PhaseName, config: Record<string, unknown>): string {
  const size = (key: string) => formatBytes(Number(config[key]));
  if (phase === 'idle') return 'Idle';
  if (phase === 'indexing_below_limit')
    return `Indexing, backlog ${size('LT_START_BYTES')} – ${size('LT_CAP_BYTES')}`;
  return `Indexing, backlog ≥ ${size('GT_START_BYTES')}`;
}

/** One cell's figures after its phase and consistency: the same columns in the Markdown and the console table. */
export function cellFigures(cell: Cell): string[] {
  return [
    String(cell.requests),
    formatQps(cell.qps),
    `${formatPercent(cell.error_rate)}${cell.errors_expected ? ' (expected 429)' : ''}`,
    formatMs(cell.client_ms.p50),
    formatMs(cell.client_ms.p95),
    formatMs(cell.client_ms.p99),
    formatMs(cell.server_ms.p50),
    formatMs(cell.server_ms.p95),
    formatBytesOrDash(cell.backlog_bytes.start),
    formatBytesOrDash(cell.backlog_bytes.end),
  ];
}

/** The query load as run: QUERY_RATE is null in the result of a QUERY_MODE=workers run, QUERY_WORKERS otherwise. */
function queryLoad(c: BacklogResult['config']): string {
  return c.QUERY_MODE === 'workers'
    ? `${c.QUERY_WORKERS} closed-loop workers sending ANN queries`
    : `${c.QUERY_RATE} ANN queries/s`;
}

/**
 * What each cell's queries returned and how their tail moved: recall@TOP_K of the recall samples against exact kNN,
 * and client p99 over the idle cell's (results before these figures have neither: nothing is printed).
 */
function recallMarkdown(r: BacklogResult): string[] {
  if (!r.cells.some((cell) => cell.recall_at_k)) return [];
  const c = r.config;
  return [
    '',
    `Recall and tail latency per cell: recall@${c.TOP_K} of ${c.RECALL_RATE} ANN queries a second at the cell's ` +
      `consistency against an exact kNN query of the same vector (strong: every acknowledged row; refused above ` +
      "the limit, so those cells have none), and client p99 over the idle cell's at the same consistency.",
    '',
    ...markdownTable(
      ['Phase', 'Consistency', `Recall@${c.TOP_K}`, 'Samples', 'p99 / idle p99'],
      r.cells.map((cell) => [
        phaseLabel(cell.phase, c),
        cell.consistency,
        formatFixed(cell.recall_at_k?.mean ?? null, 4),
        String(cell.recall_at_k?.samples ?? 0),
        cell.p99_jitter == null ? '—' : `${roundedFixed(cell.p99_jitter, 2)}x`,
      ]),
    ),
  ];
}

export function renderMarkdown(r: BacklogResult): string {
  const c = r.config;
  const lines: string[] = [
    ...statusMarkdown(r),
    `# Experiment 1: querying while indexing (${r.namespace})`,
    '',
    ...runItemsMarkdown(r),
    `- Scale: ${c.SEED_ROWS} seed rows of ${c.DIMS}-d f32 (at most ${c.MAX_TOTAL_ROWS} rows), seed ${c.SEED}; ` +
      `${queryLoad(c)} (top_k ${c.TOP_K}); ${c.QUERY_DURATION_S} s per cell after ${c.QUERY_WARMUP_S} s warm-up`,
    '',
    ...markdownTable(
      HEADER,
      r.cells.map((cell) => [phaseLabel(cell.phase, c), cell.consistency, ...cellFigures(cell)]),
    ),
    '',
    'Client latencies are k6 `http_req_duration` of successful queries; server latencies are their ' +
      '`performance.server_total_ms`. Errors are the share of all queries in the measured window.' +
      (r.cells.some((cell) => cell.errors_expected)
        ? ' "Expected 429": above the backlog limit the service refuses strong queries (backpressure), which is ' +
          'what that row measures; eventual queries are still answered.'
        : ''),
    ...errorsByStatusMarkdown(r.cells, (cell) => `${phaseLabel(cell.phase, c)}, ${cell.consistency}`),
    ...recallMarkdown(r),
    '',
    `Writers: ${r.writes.rows} rows acknowledged after setup, ${r.writes.errors} failed write requests.`,
    '',
    ...outcomeMarkdown(r),
  ];
  return `${lines.join('\n')}\n`;
}
