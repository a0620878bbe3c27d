// Experiment 2's progress lines (printed through lib/status-lines.ts): in setup(), one when a configuration's ingest
// starts and one per poll interval (at least 10 s apart) while it is ingested and drained; in the query phase, one
// when each window starts, from the VU that runs its first iteration. Pure.

import { formatBytes } from '../../core/sizes';
import { formatSeconds } from '../results/run-status';
import type { QueryCell } from './cells';
import type { Configuration } from './configurations';
import type { QueryWindow, Timeline } from './timeline';

export function configurationStartLine(
  configuration: Configuration,
  index: number,
  total: number,
  rows: number,
) {
  const a = configuration.attribute;
  const attribute = a
    ? `${a.filterable ? 'filterable' : 'non-filterable'} ${a.type} attribute, ${a.cardinality} values`
    : 'no attribute';
  return `configuration ${index + 1} of ${total}, ${configuration.name} (${attribute}): ingesting ${rows} rows`;
}

export interface IngestProgress {
  configuration: string;
  /** Rows acknowledged so far while writing; undefined once the last write was acknowledged (draining). */
  acknowledged: number | undefined;
  rows: number;
  unindexedBytes: number;
  approxRowCount: number | null;
}

export function ingestProgressLine(p: IngestProgress): string {
  const counted = p.approxRowCount === null ? '' : `, ${p.approxRowCount} rows counted`;
  const stage =
    p.acknowledged === undefined
      ? 'draining (every row written)'
      : `ingesting, ${p.acknowledged} of ${p.rows} rows acknowledged`;
  return `${p.configuration}: ${stage}; backlog ${formatBytes(p.unindexedBytes)}${counted}`;
}

/** "0.2 s" under 10 s (smoke windows are that short), otherwise run-status's "3 min 04 s". */
function span(ms: number): string {
  return ms < 10_000 ? `${Math.round(ms / 100) / 10} s` : formatSeconds(ms / 1000);
}

function cellText(cell: QueryCell): string {
  return cell.shape === 'ann_only'
    ? `${cell.configuration} ann_only`
    : `${cell.configuration} ${cell.shape} at ${cell.selectivityTag}%`;
}

/** The line printed when window `index` starts (its scenario's first iteration). */
export function windowStartLine(plan: Timeline, index: number): string {
  const w: QueryWindow = plan.windows[index];
  const lastEnds = formatSeconds((plan.totalMs - w.startMs) / 1000);
  return (
    `window ${index + 1} of ${plan.windows.length}, ${cellText(w.cell)}, ${w.consistency}: ` +
    `${span(w.warmupMs)} warm-up, then ${span(w.measuredMs)} measured; ` +
    `the last window ends in ${lastEnds}`
  );
}
