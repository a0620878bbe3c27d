// Result -> the end-of-test console summary: the cell table in fixed-width columns, the threshold outcome and
// where the files went. Pure; replaces k6's default summary because handleSummary owns stdout.
import { formatBytesOrDash, formatMs, formatPercent, formatQps } from './format';
import type { BacklogResult } from './json';
import { outcomeText } from './run-sections';
import { textTable } from './table';

const PHASE_SHORT: Record<string, string> = {
  idle: 'idle',
  indexing_below_limit: 'below limit',
  indexing_above_limit: 'above limit',
};

export function renderText(r: BacklogResult, files: string[]): string {
  const header = [
    'phase',
    'consistency',
    'reqs',
    'qps',
    'errors',
    'p50',
    'p95',
    'p99',
    'srv p50',
    'srv p95',
    'backlog start',
    'backlog end',
  ];
  const rows = r.cells.map((cell) => [
    PHASE_SHORT[cell.phase],
    cell.consistency,
    String(cell.requests),
    formatQps(cell.qps),
    formatPercent(cell.error_rate),
    formatMs(cell.client_ms.p50),
    formatMs(cell.client_ms.p95),
    formatMs(cell.client_ms.p99),
    formatMs(cell.server_ms.p50),
    formatMs(cell.server_ms.p95),
    formatBytesOrDash(cell.backlog_bytes.start),
    formatBytesOrDash(cell.backlog_bytes.end),
  ]);
  const out = [
    '',
    `  backlog experiment on ${r.target.kind} (${r.target.base_url}), namespace ${r.namespace}`,
    '',
    ...textTable(header, rows),
    '',
    ...outcomeText(r, files),
    '',
  ];
  return `${out.join('\n')}\n`;
}
