import { describe, expect, it } from 'vitest';
import { fixedWidthTime } from './progress';

describe('fixedWidthTime', () => {
  it.each([
    [5_000, 9_000, '5.0s'],
    [5_000, 30_000, '05.0s'],
    [5_000, 90_000, '0m05.0s'],
    [65_000, 900_000, '01m05.0s'],
    [3_725_000, 7_200_000, '1h02m05.0s'],
  ])('prints %d ms of %d as %s', (ms, total, text) => {
    expect(fixedWidthTime(ms, total)).toBe(text);
  });
});
