// Number and label formats of experiment 2's tables (Markdown report and console). Pure.
import { formatFixed, formatMs } from '../../results/format';
import type { Shape } from '../cells';
import type { FilterCostCell, Interval } from './cells';

export const SHAPE_LABEL: Record<Shape, string> = {
  ann_only: 'ANN, no filter',
  ann_filtered: 'ANN + filter',
  filter_ordered: 'filter, order by attr',
};

/** A share of rows as a percentage with at most 4 significant digits: 0.001 -> "0.1%", 0.0101 -> "1.01%". */
export function formatShare(fraction: number | null): string {
  if (fraction === null) return '—';
  return `${Number((fraction * 100).toPrecision(4))}%`;
}

/** "4.2ms [3.9–4.6]"; a side the samples cannot bound is "?". */
export function formatWithInterval(estimate: number | null, ci: Interval): string {
  if (estimate === null) return '—';
  const side = (x: number | null) => (x === null ? '?' : formatMs(x).replace('ms', ''));
  return `${formatMs(estimate)} [${side(ci[0])}–${side(ci[1])}]`;
}

/** A cell's client p95 with its interval. */
export function p95Text(cell: FilterCostCell | undefined): string {
  return cell ? formatWithInterval(cell.client_ms.p95, cell.client_ms_ci95.p95) : 'not run';
}

/** 0.9543 -> "0.954"; null -> "—". */
export function formatRecall(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toFixed(3);
}

/** 1234.5 -> "1,235"; null -> "—". */
export function formatRate(value: number | null): string {
  return value === null ? '—' : Math.round(value).toLocaleString('en-US');
}

/** Seconds with two decimals, "—" when unknown. */
export function formatSeconds(value: number | null): string {
  return formatFixed(value, 2, ' s');
}

/** +1.2 % / −3.6 %; "—" when unknown. */
export function formatSignedPct(value: number | null): string {
  if (value === null) return '—';
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)}%`;
}

/** "×1.19"; "—" when unknown. */
export function formatRatio(value: number | null): string {
  return value === null ? '—' : `×${value.toFixed(2)}`;
}
