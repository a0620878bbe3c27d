// Experiment 1's result -> the end-of-test console summary: the cell table in fixed-width columns, the threshold
// outcome and where the files went. Pure; replaces k6's default summary because handleSummary owns stdout.

import { consoleSummary } from '../../results/run-sections';
import { textTable } from '../../results/table';
import type { BacklogResult } from './json';
import { cellFigures } from './markdown';

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
  const rows = r.cells.map((cell) => [PHASE_SHORT[cell.phase], cell.consistency, ...cellFigures(cell)]);
  return consoleSummary(
    r,
    'backlog experiment',
    `namespace ${r.namespace}`,
    [],
    textTable(header, rows),
    files,
  );
}
