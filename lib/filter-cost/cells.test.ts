import { describe, expect, it } from 'vitest';
import { planCells } from './cells';
import { readFilterCostConfig } from './config';

const config = (env: Record<string, string>) => readFilterCostConfig({ ROWS: '50000', ...env });

describe('planCells', () => {
  it('plans every cell for a high cardinality, with exact match counts and expected rows', () => {
    const { cells, unreachable } = planCells(config({ ATTRIBUTE: 'string', CARDINALITY: 'unique' }));
    expect(unreachable).toEqual([]);
    expect(cells.map((c) => [c.id, c.shape, c.selectivity, c.matches, c.expectedRows])).toEqual([
      ['ann_only', 'ann_only', '100', 50000, 10],
      ['ann_filtered', 'ann_filtered', '0.002', 1, 1],
      ['filter_ordered', 'filter_ordered', '50', 25000, 10],
      ['ann_range_0_1', 'ann_range', '0.1', 50, 10],
      ['ann_range_1', 'ann_range', '1', 500, 10],
      ['ann_range_10', 'ann_range', '10', 5000, 10],
      ['ann_range_50', 'ann_range', '50', 25000, 10],
      ['ann_range_100', 'ann_range', '100', 50000, 10],
    ]);
    expect(cells[1].filter).toEqual(['attr', 'Eq', 'v0025000']);
    expect(cells[2].filter).toEqual(['attr', 'Gte', 'v0025000']);
    expect(cells[3].filter).toEqual(['attr', 'Lt', 'v0000050']);
    expect(cells[0].filter).toBeUndefined();
  });

  it('leaves out the sweep points a low cardinality cannot reach, saying why', () => {
    const { cells, unreachable } = planCells(config({ CARDINALITY: '2' }));
    expect(cells.map((c) => c.id)).toEqual([
      'ann_only',
      'ann_filtered',
      'filter_ordered',
      'ann_range_50',
      'ann_range_100',
    ]);
    expect(cells[1]).toMatchObject({ selectivity: '50', matches: 25000, filter: ['attr', 'Eq', 1] });
    expect(unreachable.map((u) => u.selectivity)).toEqual(['0.1', '1', '10']);
    expect(unreachable[0].reason).toBe(
      'cardinality 2 has no set of values covering exactly 50 rows (nearest: 0 or 25000)',
    );
  });

  it('has only ann_only without a filterable attribute', () => {
    const envs: Record<string, string>[] = [
      { ATTRIBUTE: 'none' },
      { CARDINALITY: 'unique', FILTERABLE: '0' },
    ];
    for (const env of envs)
      expect(planCells(config(env))).toEqual({
        cells: [{ id: 'ann_only', shape: 'ann_only', selectivity: '100', matches: 50000, expectedRows: 10 }],
        unreachable: [],
      });
  });
});
