import { describe, expect, it } from 'vitest';
import { planCells } from './cells';
import { readFilterCostConfig } from './config';
import { queryBody } from './query-body';

const config = readFilterCostConfig({ ROWS: '1000', CARDINALITY: '100', TOP_K: '5', CONSISTENCY: 'strong' });
const byId = Object.fromEntries(planCells(config).cells.map((c) => [c.id, c]));

describe('queryBody', () => {
  it('sends ANN with the cell filter, and kNN with the same filter as the exact answer', () => {
    expect(queryBody(config, byId.ann_filtered, [0.5, -0.5])).toEqual({
      rank_by: ['vector', 'ANN', [0.5, -0.5]],
      top_k: 5,
      consistency: { level: 'strong' },
      filters: ['attr', 'Eq', 50],
    });
    expect(queryBody(config, byId.ann_range_10, [1], true)).toMatchObject({
      rank_by: ['vector', 'kNN', [1]],
      filters: ['attr', 'Lt', 10],
    });
  });

  it('filters kNN without a cell filter by a match-all id range, and orders filter_ordered by the attribute', () => {
    expect(queryBody(config, byId.ann_only, [1])).not.toHaveProperty('filters');
    expect(queryBody(config, byId.ann_only, [1], true).filters).toEqual(['id', 'Gte', 0]);
    expect(queryBody(config, byId.filter_ordered, [1])).toEqual({
      rank_by: ['attr', 'asc'],
      top_k: 5,
      consistency: { level: 'strong' },
      filters: ['attr', 'Gte', 50],
    });
  });
});
