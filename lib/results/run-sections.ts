// The parts of a result's Markdown and console text that both experiments print the same way: where and when the
// run happened, the failed queries by status, the threshold outcome, the files written and the console layout. Pure.

import { describeCommit } from '../versions';
import { formatErrorsByStatus } from './format';
import type { QueryFigures } from './query-cell-figures';
import type { RunRecord } from './run-record';
import type { RunStatus } from './run-status';
import type { RunOutcome } from './summary-data';

/** The Markdown's first lines when the run was aborted (and why); nothing when it ran to its end. */
export function statusMarkdown(r: RunStatus): string[] {
  if (r.status !== 'aborted') return [];
  return [
    `> **Aborted run:** ${r.status_reason}. The figures cover only what ran; the thresholds were not evaluated.`,
    '',
  ];
}

/** The `- Target:` and `- Run:` items of the Markdown header (and the emulator's settings, to start an equal one). */
export function runItemsMarkdown(r: RunRecord): string[] {
  const v = r.versions;
  const e = r.target.emulator;
  return [
    `- Target: ${r.target.kind} at ${r.target.base_url}`,
    ...(e
      ? [
          `- Emulator: bench ${e.version} (commit ${describeCommit(e)}), started as \`bench emulator ${e.flags.join(' ')}\`` +
            `${e.settings.durable ? ' with --data-dir' : ''}`,
        ]
      : []),
    `- Run: ${r.started_at} to ${r.finished_at}; bench ${v.bench} (commit ${describeCommit(v)}), runner ${v.runner}, Node.js ${v.node}`,
  ];
}

/** "Errors by status:" with one item per cell that had errors, after a blank line; nothing when none had any. */
export function errorsByStatusMarkdown<C extends Pick<QueryFigures, 'errors' | 'errors_by_status'>>(
  cells: readonly C[],
  label: (cell: C) => string,
): string[] {
  const withErrors = cells.filter((cell) => cell.errors > 0);
  if (withErrors.length === 0) return [];
  return [
    '',
    'Errors by status:',
    '',
    ...withErrors.map((cell) => `- ${label(cell)}: ${formatErrorsByStatus(cell.errors_by_status)}`),
  ];
}

/** The closing paragraph: every threshold passed, or the failed expressions; with the dropped iterations. */
export function outcomeMarkdown(r: RunOutcome): string[] {
  if (!r.thresholds.evaluated)
    return [`Thresholds not evaluated (aborted run); ${r.dropped_iterations} dropped iterations.`];
  if (r.thresholds.passed) return [`All thresholds passed; ${r.dropped_iterations} dropped iterations.`];
  return [
    `Failed thresholds (${r.thresholds.failed.length}); ${r.dropped_iterations} dropped iterations:`,
    '',
    ...r.thresholds.failed.map((f) => `- \`${f.metric}\`: \`${f.expression}\``),
  ];
}

/** The console's closing lines: the threshold outcome, then the files handleSummary wrote. */
export function outcomeText(r: RunOutcome, files: readonly string[]): string[] {
  return [
    !r.thresholds.evaluated
      ? `  - thresholds not evaluated: aborted run (${r.dropped_iterations} dropped iterations)`
      : r.thresholds.passed
        ? `  ✓ all thresholds passed, ${r.dropped_iterations} dropped iterations`
        : `  ✗ ${r.thresholds.failed.length} thresholds failed (${r.dropped_iterations} dropped iterations):`,
    ...r.thresholds.failed.map((f) => `    ✗ ${f.metric} '${f.expression}'`),
    '',
    ...files.map((f) => `  wrote ${f}`),
  ];
}

/**
 * The console summary both experiments print: `<what> on <target> (<url>), <where>`, any further heading lines,
 * the cell table, the threshold outcome and the files written, set apart by blank lines.
 */
export function consoleSummary(
  r: RunRecord,
  what: string,
  where: string,
  heading: readonly string[],
  table: readonly string[],
  files: readonly string[],
): string {
  const title = `  ${what} on ${r.target.kind} (${r.target.base_url}), ${where}`;
  const aborted = r.status === 'aborted' ? [`  ABORTED: ${r.status_reason}`] : [];
  return `${['', title, ...aborted, ...heading, '', ...table, '', ...outcomeText(r, files), ''].join('\n')}\n`;
}
