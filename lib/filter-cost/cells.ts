// The study's query cells, in run order: per configuration `ann_only`, then (with a filterable attribute)
// `ann_filtered` and `filter_ordered` at the headline 1 %, and on the sweep configuration both filtered shapes at
// every SELECTIVITIES point (its 1 % cells are the headline ones). Each cell runs at strong, then at eventual
// consistency: two windows with the same query vectors. Filters come from the value design (./selectivity.ts);
// shares no filter can match exactly are listed with the reason and get no cell. Pure.
import type { Consistency } from '../turbopuffer-wire';
import { attributeColumn } from './attribute-values';
import { ATTRIBUTE_NAME, type FilterCostConfig, HEADLINE_SELECTIVITY } from './config';
import { type Configuration, isFilterable } from './configurations';
import { filterFor, formatPercentTag, type LeafFilter } from './selectivity';

/**
 * - `ann_only`: ANN, no filter.
 * - `ann_filtered`: ANN plus the filter.
 * - `filter_ordered`: the filter, ranked by the attribute (`rank_by [attr, asc]`): the first page of a sorted,
 *   filtered listing, no vector work.
 */
const SHAPES = ['ann_only', 'ann_filtered', 'filter_ordered'] as const;
export type Shape = (typeof SHAPES)[number];

export const CONSISTENCIES: readonly Consistency[] = ['strong', 'eventual'];

export interface QueryCell {
  /** `int-10k/ann_filtered/1`: configuration, shape and selectivity tag. */
  id: string;
  configuration: string;
  shape: Shape;
  /** Target share of rows matching (1 without a filter). */
  selectivity: number;
  /** The same as the `selectivity` tag: "0.1", "1", "100". */
  selectivityTag: string;
  filter: LeafFilter | null;
  /** Rows the filter matches by the value design; setup() counts the real number. */
  expectedMatches: number;
  /** Rows every answer must have: min(TOP_K, matches). */
  expectedRows: number;
}

export interface UnreachableCell {
  configuration: string;
  selectivityTag: string;
  reason: string;
}

export interface StudyPlan {
  cells: QueryCell[];
  /** Filtered cells the value design cannot build (cardinality 2 at 1 %, ...): no cell, and why. */
  unreachable: UnreachableCell[];
}

/** The share targets a configuration's filtered cells run at, in run order. */
function targets(c: FilterCostConfig, configuration: Configuration): number[] {
  if (configuration.name !== c.sweepConfiguration) return [HEADLINE_SELECTIVITY];
  const tag = formatPercentTag(HEADLINE_SELECTIVITY);
  const sweep = c.selectivities.some((f) => formatPercentTag(f) === tag)
    ? c.selectivities
    : [HEADLINE_SELECTIVITY, ...c.selectivities];
  return [...sweep];
}

export function planStudy(c: FilterCostConfig): StudyPlan {
  const cells: QueryCell[] = [];
  const unreachable: UnreachableCell[] = [];
  const cell = (
    configuration: string,
    shape: Shape,
    fraction: number,
    filter: LeafFilter | null,
    matches: number,
  ) => {
    const selectivityTag = formatPercentTag(fraction);
    cells.push({
      id: `${configuration}/${shape}/${selectivityTag}`,
      configuration,
      shape,
      selectivity: fraction,
      selectivityTag,
      filter,
      expectedMatches: matches,
      expectedRows: Math.min(c.topK, matches),
    });
  };
  for (const configuration of c.configurations) {
    cell(configuration.name, 'ann_only', 1, null, c.rows);
    if (!isFilterable(configuration)) continue;
    const a = configuration.attribute;
    // Match counts depend only on type, rows and cardinality (the seed decides which ids hold which value), so the
    // plan exists in init code, before setup() draws the seed.
    const column = attributeColumn(a.type, c.rows, a.cardinality, 0);
    for (const fraction of targets(c, configuration)) {
      const design = filterFor(ATTRIBUTE_NAME, column, fraction);
      if (!design.reachable) {
        unreachable.push({
          configuration: configuration.name,
          selectivityTag: formatPercentTag(fraction),
          reason: design.reason,
        });
        continue;
      }
      for (const shape of ['ann_filtered', 'filter_ordered'] as const)
        cell(configuration.name, shape, fraction, design.filter, design.matches);
    }
  }
  return { cells, unreachable };
}

/** Whether a cell ranks by vector (ANN); filter_ordered ranks by the attribute. */
export function ranksByVector(cell: Pick<QueryCell, 'shape'>): boolean {
  return cell.shape !== 'filter_ordered';
}

/** The filters setup() counts matches for: one per configuration and share (both shapes use the same filter). */
export function distinctFilters(cells: readonly QueryCell[]): QueryCell[] {
  const seen = new Set<string>();
  return cells.filter((cell) => {
    const key = `${cell.configuration}/${cell.selectivityTag}`;
    if (cell.filter === null || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
