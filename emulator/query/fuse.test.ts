// Reciprocal rank fusion of sub-query rows: the formula, weights, ties, merged attributes, offset and limit.
import { describe, expect, it } from 'vitest';
import { fuseRows } from './fuse';

describe('fuseRows', () => {
  const bm25 = [
    { id: 1, $dist: 9, title: 'a' },
    { id: 2, $dist: 5, title: 'b' },
  ];
  const ann = [
    { id: 2, $dist: 0.1, price: 20 },
    { id: 3, $dist: 0.4, price: 30 },
  ];
  it('sums weight / (k + rank) by document, best first, ties by id, with every attribute its sub-queries returned', () => {
    const fused = fuseRows([bm25, ann], { rankConstant: 60, weights: [1, 1] }, 0, null);
    expect(fused).toEqual([
      { id: 2, $dist: 1 / 62 + 1 / 61, title: 'b', price: 20 },
      { id: 1, $dist: 1 / 61, title: 'a' },
      { id: 3, $dist: 1 / 62, price: 30 },
    ]);
  });
  it('weights and the rank constant change the order; offset and limit cut the fused list', () => {
    const fused = fuseRows([bm25, ann], { rankConstant: 1, weights: [1, 3] }, 0, null);
    expect(fused.map((r) => [r.id, r.$dist])).toEqual([
      [2, 1 / 3 + 3 / 2],
      [3, 3 / 3],
      [1, 1 / 2],
    ]);
    expect(fuseRows([bm25, ann], { rankConstant: 1, weights: [1, 3] }, 1, 1).map((r) => r.id)).toEqual([3]);
    expect(
      fuseRows([[{ id: 'b' }], [{ id: 'a' }]], { rankConstant: 60, weights: [1, 1] }, 0, null).map(
        (r) => r.id,
      ),
    ).toEqual(['a', 'b']);
  });
});
