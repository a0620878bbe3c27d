// Chunked per-row arrays across chunk boundaries (65,536 entries each).
import { describe, expect, it } from 'vitest';
import { ChunkedFloat64, ChunkedList } from './chunked';

describe('chunked arrays', () => {
  it('keep values across chunk boundaries and read unset entries as the fill', () => {
    const numbers = new ChunkedFloat64(Number.POSITIVE_INFINITY);
    numbers.set(65_535, 1);
    numbers.set(65_536, 2);
    numbers.set(200_000, 3);
    expect([numbers.get(65_535), numbers.get(65_536), numbers.get(200_000)]).toEqual([1, 2, 3]);
    expect(numbers.get(0)).toBe(Number.POSITIVE_INFINITY);
    expect(numbers.get(10_000_000)).toBe(Number.POSITIVE_INFINITY);
    const list = new ChunkedList<string | number>();
    for (let i = 0; i < 70_000; i++) list.push(i % 2 ? `s${i}` : i);
    expect([list.length, list.get(65_536), list.get(69_999), list.get(70_000)]).toEqual([
      70_000,
      65_536,
      's69999',
      undefined,
    ]);
  });
});
