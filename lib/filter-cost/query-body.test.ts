import { describe, expect, it } from 'vitest';
import { planStudy } from './cells';
import { readFilterCostConfig } from './config';
import { countBody, queryBody } from './query-body';

const config = readFilterCostConfig({
  ROWS: '1000',
  CONFIGURATIONS: 'baseline,int-100,string-unique',
  TOP_K: '5',
});
const byId = Object.fromEntries(planStudy(config).cells.map((c) => [c.id, c]));

describe('queryBody', () => {
  it('sends ANN with the cell filter at the window consistency, and kNN with the same filter as ground truth', () => {
    expect(queryBody(byId['int-100/ann_filtered/1'], 'strong', 5, [0.5, -0.5])).toEqual({
      rank_by: ['vector', 'ANN', [0.5, -0.5]],
      top_k: 5,
      consistency: { level: 'strong' },
      filters: ['attr', 'Eq', 0],
    });
    expect(queryBody(byId['string-unique/ann_filtered/1'], 'eventual', 10, [1], true)).toEqual({
      rank_by: ['vector', 'kNN', [1]],
      top_k: 10,
      consistency: { level: 'eventual' },
      filters: ['attr', 'Lt', 'v0000010'],
    });
  });

  it('filters kNN without a cell filter by a match-all id range, and orders filter_ordered by the attribute', () => {
    expect(queryBody(byId['baseline/ann_only/100'], 'strong', 5, [1])).not.toHaveProperty('filters');
    expect(queryBody(byId['baseline/ann_only/100'], 'strong', 5, [1], true).filters).toEqual([
      'id',
      'Gte',
      0,
    ]);
    expect(queryBody(byId['int-100/filter_ordered/1'], 'eventual', 5, [1])).toEqual({
      rank_by: ['attr', 'asc'],
      top_k: 5,
      consistency: { level: 'eventual' },
      filters: ['attr', 'Eq', 0],
    });
  });

  it('counts the matches of a filter at strong consistency', () => {
    expect(countBody(byId['int-100/ann_filtered/1'])).toEqual({
      aggregate_by: { matches: ['Count'] },
      consistency: { level: 'strong' },
      filters: ['attr', 'Eq', 0],
    });
  });
});
