// Bounded top-k selection against a full sort, ties and merging.
import { describe, expect, it } from 'vitest';
import { seededRandom } from './random';
import { mergeHits, TopK } from './top-k';

describe('TopK', () => {
  it('keeps exactly the k smallest of a random stream, best first', () => {
    const random = seededRandom(3);
    const items = Array.from({ length: 5000 }, (_, row) => ({ row, dist: random() }));
    const top = new TopK(25);
    for (const h of items) top.push(h.dist, h.row);
    expect(top.hits()).toEqual([...items].sort((a, b) => a.dist - b.dist).slice(0, 25));
  });

  it('breaks ties by the lower row, whatever the arrival order', () => {
    const top = new TopK(3);
    for (const row of [9, 4, 7, 1, 8, 2]) top.push(0.5, row);
    expect(top.hits().map((h) => h.row)).toEqual([1, 2, 4]);
  });

  it('returns fewer than k when fewer arrive, and rejects k < 1', () => {
    const top = new TopK(10);
    top.push(2, 0);
    top.push(1, 1);
    expect(top.hits()).toEqual([
      { row: 1, dist: 1 },
      { row: 0, dist: 2 },
    ]);
    expect(top.threshold).toBe(Number.POSITIVE_INFINITY);
    expect(() => new TopK(0)).toThrow(/positive integer/);
  });

  it('mergeHits keeps the k best across lists', () => {
    expect(
      mergeHits(
        [
          [
            { row: 1, dist: 0.1 },
            { row: 2, dist: 0.4 },
          ],
          [
            { row: 3, dist: 0.2 },
            { row: 4, dist: 0.1 },
          ],
        ],
        3,
      ),
    ).toEqual([
      { row: 1, dist: 0.1 },
      { row: 4, dist: 0.1 },
      { row: 3, dist: 0.2 },
    ]);
  });
});
