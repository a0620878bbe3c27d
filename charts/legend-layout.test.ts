import { describe, expect, it } from 'vitest';
import { wrappedLegendBottom } from './legend-layout';

describe('wrappedLegendBottom', () => {
  it('keeps entries that fit on one row', () => {
    // Three entries of 70 px: 100 + 10 + 100 + 10 + 100 = 320 px.
    expect(wrappedLegendBottom([70, 70, 70], 320, 62)).toBe(62 + 16);
  });

  it('starts a new row for an entry that would pass the right edge, 10 px below the last', () => {
    expect(wrappedLegendBottom([70, 70, 70], 319, 62)).toBe(62 + 16 + 10 + 16);
    expect(wrappedLegendBottom(Array(12).fill(70), 320, 62)).toBe(62 + 4 * 16 + 3 * 10);
  });

  it('gives an entry wider than the row a row of its own', () => {
    expect(wrappedLegendBottom([500, 10], 320, 0)).toBe(2 * 16 + 10);
  });

  it('is self-contained, as the page needs it', () => {
    expect(() => new Function(`return (${wrappedLegendBottom.toString()})([1], 10, 0);`)()).not.toThrow();
  });
});
