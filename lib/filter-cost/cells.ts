// The query cells of one configuration, in run order: ann_only, then (with a filterable attribute) ann_filtered,
// filter_ordered and the selectivity sweep (ann_range) at every reachable fraction. Each cell is one k6 scenario
// named by its id; its filter and the exact number of rows that filter matches come from ./selectivity.ts. Pure.
import { type AttributeColumn, attributeColumn } from './attribute-values';
import { ATTRIBUTE_NAME, type FilterCostConfig, hasFilterableAttribute } from './config';
import { equalityFilter, formatPercentTag, type LeafFilter, sweep, upperHalfFilter } from './selectivity';

/**
 * - `ann_only`: ANN, no filter.
 * - `ann_filtered`: ANN + `attr Eq <middle value>` (one value's rows).
 * - `filter_ordered`: `attr Gte <middle value>` ranked by `attr asc`: the first page of a sorted, filtered listing,
 *   no vector work.
 * - `ann_range`: ANN + `attr Lt <bound>` matching the sweep's fraction of rows.
 */
export const SHAPES = ['ann_only', 'ann_filtered', 'filter_ordered', 'ann_range'] as const;
export type Shape = (typeof SHAPES)[number];

export interface QueryCell {
  /** Scenario name and key: `ann_only`, `ann_filtered`, `filter_ordered`, `ann_range_0_1`, `ann_range_50`. */
  id: string;
  shape: Shape;
  /** Percentage of rows the filter matches, as the `selectivity` tag ("0.1", "50", "100"). */
  selectivity: string;
  /** Rows the filter matches (all rows without a filter). */
  matches: number;
  filter?: LeafFilter;
  /** Rows every answer must have: min(TOP_K, matches). */
  expectedRows: number;
}

export interface UnreachableSelectivity {
  selectivity: string;
  reason: string;
}

export interface CellPlan {
  cells: QueryCell[];
  /** Sweep points this configuration cannot hit exactly (and why); they get no cell. */
  unreachable: UnreachableSelectivity[];
}

/**
 * The filter arithmetic's column. Match counts and filter values depend only on type, rows and cardinality (the
 * seed only decides which ids hold which value), so init code can plan cells before setup() draws the seed.
 */
function planningColumn(c: FilterCostConfig): AttributeColumn {
  return attributeColumn(c.attribute === 'string' ? 'string' : 'int', c.rows, c.cardinality, 0);
}

export function planCells(c: FilterCostConfig): CellPlan {
  const cell = (id: string, shape: Shape, matches: number, filter?: LeafFilter): QueryCell => ({
    id,
    shape,
    selectivity: formatPercentTag(matches / c.rows),
    matches,
    ...(filter ? { filter } : {}),
    expectedRows: Math.min(c.topK, matches),
  });
  const cells = [cell('ann_only', 'ann_only', c.rows)];
  if (!hasFilterableAttribute(c)) return { cells, unreachable: [] };
  const column = planningColumn(c);
  const eq = equalityFilter(ATTRIBUTE_NAME, column);
  const half = upperHalfFilter(ATTRIBUTE_NAME, column);
  cells.push(cell('ann_filtered', 'ann_filtered', eq.matches, eq.filter));
  cells.push(cell('filter_ordered', 'filter_ordered', half.matches, half.filter));
  const unreachable: UnreachableSelectivity[] = [];
  for (const point of sweep(ATTRIBUTE_NAME, column, c.selectivities)) {
    const tag = formatPercentTag(point.fraction);
    if (point.reachable)
      cells.push(cell(`ann_range_${tag.replace('.', '_')}`, 'ann_range', point.matches, point.filter));
    else unreachable.push({ selectivity: tag, reason: point.reason });
  }
  return { cells, unreachable };
}

/** Whether a cell ranks by vector (ANN); filter_ordered ranks by the attribute. */
export function ranksByVector(cell: QueryCell): boolean {
  return cell.shape !== 'filter_ordered';
}
