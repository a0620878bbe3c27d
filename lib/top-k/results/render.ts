// The top-k experiment's result as Markdown (the report) and as the end-of-test console summary. Pure.
import { formatMs, formatPercent, formatQps } from '../../results/format';
import {
  consoleSummary,
  errorsByStatusMarkdown,
  outcomeMarkdown,
  runItemsMarkdown,
  statusMarkdown,
} from '../../results/run-sections';
import { markdownTable, textTable } from '../../results/table';
import type { TopKCell, TopKResult } from './json';

const HEADER = ['top_k', 'Requests', 'QPS', 'Errors', 'Client p50', 'p95', 'p99', 'Server p50', 'p95'];

function figures(cell: TopKCell): string[] {
  return [
    String(cell.top_k),
    String(cell.requests),
    formatQps(cell.qps),
    formatPercent(cell.error_rate),
    formatMs(cell.client_ms.p50),
    formatMs(cell.client_ms.p95),
    formatMs(cell.client_ms.p99),
    formatMs(cell.query_execution_ms.p50),
    formatMs(cell.query_execution_ms.p95),
  ];
}

function load(c: TopKResult['config']): string {
  return c.QUERY_MODE === 'workers' ? `${c.QUERY_WORKERS} closed-loop workers` : `${c.QUERY_RATE} queries/s`;
}

export function renderTopKMarkdown(r: TopKResult): string {
  const c = r.config;
  const lines = [
    ...statusMarkdown(r),
    `# Top-k: ANN latency by top_k on an idle namespace (${r.namespace})`,
    '',
    ...runItemsMarkdown(r),
    `- Scale: ${r.rows} indexed rows of ${c.DIMS}-d f32, seed ${c.SEED}; ${load(c)} at ${c.CONSISTENCY} ` +
      `consistency; ${c.QUERY_DURATION_S} s per top_k after ${c.QUERY_WARMUP_S} s warm-up`,
    '',
    ...markdownTable(HEADER, r.cells.map(figures)),
    '',
    'Client latencies are k6 `http_req_duration` of successful queries; server latencies are their ' +
      '`performance.query_execution_ms`.',
    ...errorsByStatusMarkdown(r.cells, (cell) => `top_k ${cell.top_k}`),
    '',
    ...outcomeMarkdown(r),
  ];
  return `${lines.join('\n')}\n`;
}

export function renderTopKText(r: TopKResult, files: string[]): string {
  const header = ['top_k', 'reqs', 'qps', 'errors', 'p50', 'p95', 'p99', 'srv p50', 'srv p95'];
  return consoleSummary(
    r,
    'top-k experiment',
    `namespace ${r.namespace}`,
    [],
    textTable(header, r.cells.map(figures)),
    files,
  );
}
