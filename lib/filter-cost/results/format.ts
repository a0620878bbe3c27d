// Number and label formats of experiment 2's tables (per-configuration Markdown, console, merged report). Pure.

import { formatFixed } from '../../results/format';
import type { FilterCostCell } from './cells';
import type { FilterCostResult } from './json';

export const SHAPE_LABEL: Record<FilterCostCell['shape'], string> = {
  ann_only: 'ANN, no filter',
  ann_filtered: 'ANN + Eq',
  filter_ordered: 'Gte, order by attr',
  ann_range: 'ANN + range',
};

/** "0.1%" and so on; the cell's exact match count goes in its own column. */
export function formatSelectivity(cell: Pick<FilterCostCell, 'selectivity_pct'>): string {
  return `${cell.selectivity_pct}%`;
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

/** "int, 100 values, filterable" / "none" / "string, unique, not filterable". */
export function describeAttribute(r: Pick<FilterCostResult, 'attribute' | 'config'>): string {
  const a = r.attribute;
  if (a.type === null) return 'no attribute';
  const values = a.cardinality === r.config.ROWS ? 'unique values' : `${a.cardinality} distinct values`;
  return `${a.type}, ${values}, ${a.filterable ? 'filterable' : 'not filterable'}`;
}
