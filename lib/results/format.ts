// Number formats shared by the Markdown and console renderers, and the published table's row labels. Pure.
import type { PhaseName } from '../phases';
import { formatBytes } from '../sizes';

export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  return Number.isInteger(ms) ? `${ms}ms` : `${ms.toFixed(1)}ms`;
}

export function formatPercent(rate: number): string {
  if (rate === 0) return '0%';
  const pct = rate * 100;
  return `${pct < 0.1 ? pct.toPrecision(1) : pct.toFixed(1)}%`;
}

export function formatBacklog(bytes: number | null): string {
  return bytes === null ? '—' : formatBytes(bytes);
}

export function formatQps(qps: number): string {
  return qps.toFixed(1);
}

/** The row label of the published table, with this run's windows (they differ from 2 GiB on scaled runs). */
export function phaseLabel(phase: PhaseName, config: Record<string, unknown>): string {
  const size = (key: string) => formatBytes(Number(config[key]));
  if (phase === 'idle') return 'Idle';
  if (phase === 'indexing_below_limit')
    return `Indexing, backlog ${size('LT_START_BYTES')} – ${size('LT_CAP_BYTES')}`;
  return `Indexing, backlog ≥ ${size('GT_START_BYTES')}`;
}

/** "429: 812, 5xx: 3" (empty when there were no errors). */
export function formatErrorsByStatus(byStatus: Record<string, number>): string {
  return Object.entries(byStatus)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
}
