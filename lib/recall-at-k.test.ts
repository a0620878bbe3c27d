import { describe, expect, it } from 'vitest';
import { recallAtK } from './recall-at-k';

describe('recallAtK', () => {
  it.each([
    [[1, 2, 3], [1, 2, 3], 1],
    [[3, 2, 9], [1, 2, 3], 2 / 3],
    [[7, 8], [1, 2, 3, 4], 0],
    [['a', 'b'], ['b', 'c'], 0.5],
    [[1], [], 1],
  ])('%j against the exact %j is %d', (answer, exact, recall) => {
    expect(recallAtK(answer, exact)).toBeCloseTo(recall, 12);
  });
});
