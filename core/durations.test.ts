import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseDuration } from './durations';

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['1m30s', 90_000],
    ['500ms', 500],
    ['1.5h', 5_400_000],
    ['2h45m', 9_900_000],
    ['1d12h', 129_600_000],
    ['2d', 172_800_000],
    ['100us', 0.1],
    ['100µs', 0.1],
    ['10ns', 0.00001],
    ['60000', 60_000],
    ['0', 0],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBeCloseTo(ms, 9);
  });

  it('reads a JSON number as milliseconds', () => {
    expect(parseDuration(60000)).toBe(60_000);
  });

  it.each(['', 'abc', '5 s', '1x', 's'])('rejects %j', (text) => {
    expect(() => parseDuration(text)).toThrow(/invalid duration/);
  });
});

describe('formatGoDuration', () => {
  it.each([
    [0, '0s'],
    [30_000, '30s'],
    [90_000, '1m30s'],
    [600_000, '10m0s'],
    [500, '500ms'],
    [3_600_000, '1h0m0s'],
    [1_500, '1.5s'],
    [630_000, '10m30s'],
    [0.5, '500µs'],
  ])('prints %d ms as %s', (ms, text) => {
    expect(formatGoDuration(ms)).toBe(text);
  });
});
