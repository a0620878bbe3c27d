// One configuration's result -> the end-of-test console summary: ingest line, the cell table in fixed-width
// columns, the threshold outcome and where the files went. Pure (handleSummary owns stdout).

import { formatBytesOrDash, formatMs, formatPercent } from '../../results/format';
import { consoleSummary } from '../../results/run-sections';
import { textTable } from '../../results/table';
import { formatRate, formatRecall, formatSeconds } from './format';
import type { FilterCostResult } from './json';

export function renderFilterCostText(r: FilterCostResult, files: string[]): string {
  const header = ['cell', 'sel %', 'reqs', 'errors', 'p50', 'p95', 'p99', 'srv p50', 'recall'];
  const rows = r.cells.map((cell) => [
    cell.id,
    cell.selectivity_pct,
    String(cell.requests),
    formatPercent(cell.error_rate),
    formatMs(cell.client_ms.p50),
    formatMs(cell.client_ms.p95),
    formatMs(cell.client_ms.p99),
    formatMs(cell.server_ms.p50),
    formatRecall(cell.recall?.mean),
  ]);
  const ingest =
    `  ingest ${r.ingest.rows} rows at ${formatRate(r.ingest.rows_per_s)} rows/s, ` +
    `drain ${formatSeconds(r.drain.seconds)}, ${formatBytesOrDash(r.storage.approx_logical_bytes)} logical`;
  return consoleSummary(r, `filter-cost ${r.configuration}`, [ingest], textTable(header, rows), files);
}
