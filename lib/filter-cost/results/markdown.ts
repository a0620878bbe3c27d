// One configuration's result -> Markdown: ingest, drain and storage, then one row per query cell with latency,
// errors, recall and the server's figures, the unreachable sweep points and the threshold outcome. Pure.

import { formatBytesOrDash, formatFixed, formatMs, formatPercent, formatQps } from '../../results/format';
import { errorsByStatusMarkdown, outcomeMarkdown, runItemsMarkdown } from '../../results/run-sections';
import { markdownTable } from '../../results/table';
import { formatBytes } from '../../sizes';
import {
  describeAttribute,
  formatRate,
  formatRecall,
  formatSeconds,
  formatSelectivity,
  SHAPE_LABEL,
} from './format';
import type { FilterCostResult } from './json';

export function renderFilterCostMarkdown(r: FilterCostResult): string {
  const c = r.config;
  const i = r.ingest;
  const lines: string[] = [
    `# Experiment 2: filterable-attribute cost, configuration \`${r.configuration}\` (${r.namespace})`,
    '',
    ...runItemsMarkdown(r),
    `- Data: ${c.ROWS} rows of ${c.DIMS}-d f32 vectors; attribute: ${describeAttribute(r)}; seed ${c.SEED}`,
    `- Queries: ${c.QUERY_RATE}/s per cell, ${c.QUERY_DURATION_S} s measured after ${c.QUERY_WARMUP_S} s warm-up, ` +
      `top_k ${c.TOP_K}, ${c.CONSISTENCY} consistency; recall from ${c.RECALL_QUERIES} probes per cell`,
    '',
    '## Ingest, drain and storage',
    '',
    ...markdownTable(
      [
        'Rows',
        'Requests',
        'Rows/s',
        'JSON MB/s',
        'Billable written',
        'Write p50',
        'p95',
        'Drain',
        'Logical bytes',
        'Bytes/row',
      ],
      [
        [
          String(i.rows),
          String(i.requests),
          formatRate(i.rows_per_s),
          formatFixed(i.request_mb_per_s, 1),
          formatBytes(i.billable_bytes_written),
          formatMs(i.write_ms.p50),
          formatMs(i.write_ms.p95),
          formatSeconds(r.drain.seconds),
          formatBytesOrDash(r.storage.approx_logical_bytes),
          formatFixed(r.storage.bytes_per_row, 1),
        ],
      ],
    ),
    '',
    `Rows/s and MB/s are over the ${i.busy_s.toFixed(2)} s with write requests in flight ` +
      `(${c.WRITE_CONCURRENCY} at a time, ${c.WRITE_BATCH_ROWS} rows each; ${i.wall_s.toFixed(2)} s wall clock ` +
      `including body generation; ${i.retries} retries). Drain: last acknowledged write to the first metadata ` +
      `reading that said up-to-date (polled every ${r.drain.poll_ms} ms). Logical bytes and bytes/row: ` +
      'approx_logical_bytes / approx_row_count once indexed.',
    '',
    '## Queries',
    '',
    ...markdownTable(
      [
        'Shape',
        'Selectivity',
        'Matches',
        'Requests',
        'QPS',
        'Errors',
        'Client p50',
        'p95',
        'p99',
        'Server p50',
        'p99',
        `Recall@${c.TOP_K}`,
        'Exhaustive p50',
      ],
      r.cells.map((cell) => [
        SHAPE_LABEL[cell.shape],
        formatSelectivity(cell),
        String(cell.matches),
        String(cell.requests),
        formatQps(cell.qps),
        formatPercent(cell.error_rate),
        formatMs(cell.client_ms.p50),
        formatMs(cell.client_ms.p95),
        formatMs(cell.client_ms.p99),
        formatMs(cell.server_ms.p50),
        formatMs(cell.server_ms.p99),
        formatRecall(cell.recall?.mean),
        cell.exhaustive_search_count.p50 === null ? '—' : String(cell.exhaustive_search_count.p50),
      ]),
    ),
    '',
    'Client latencies are k6 `http_req_duration` of successful queries; server latencies their ' +
      '`performance.server_total_ms`. Selectivity is the share of rows the filter matches.',
    ...errorsByStatusMarkdown(r.cells, (cell) => cell.id),
  ];
  if (r.unreachable.length > 0) {
    lines.push('', 'Sweep points this cardinality cannot match exactly (no cell):', '');
    for (const u of r.unreachable) lines.push(`- ${u.selectivity}%: ${u.reason}`);
  }
  lines.push('', ...outcomeMarkdown(r));
  return `${lines.join('\n')}\n`;
}
