import { describe, expect, it } from 'vitest';
import { formatBytes, formatNumber, formatPercent, formatRate, formatTime } from './format';

describe('summary value formatting', () => {
  it.each([
    [0, '0s'],
    [140.36, '140.36ms'],
    [130.2, '130.19ms'],
    [0.04332, '43.32µs'],
    [1230, '1.23s'],
    [1000, '1s'],
    [62_000, '1m2s'],
    [3_723_000, '1h2m3s'],
    [0.0005, '500ns'],
  ])('prints %d ms as %s', (ms, text) => {
    expect(formatTime(ms)).toBe(text);
  });

  it('prints a fixed time unit with 2 decimals', () => {
    expect(formatTime(1234.5, 's')).toBe('1.23s');
    expect(formatTime(1.5, 'us')).toBe('1500.00µs');
  });

  it.each([
    [830, '830 B'],
    [4900, '4.9 kB'],
    [519_000, '519 kB'],
    [519_999, '519 kB'],
    [1_500_000, '1.5 MB'],
  ])('prints %d bytes as %s', (b, text) => {
    expect(formatBytes(b)).toBe(text);
  });

  it('truncates percentages and numbers', () => {
    expect(formatPercent(1)).toBe('100.00%');
    expect(formatPercent(0.123456)).toBe('12.34%');
    expect(formatPercent(0.6666)).toBe('66.66%');
    expect(formatNumber(6.561099)).toBe('6.561099');
    expect(formatNumber(6.5610999)).toBe('6.561099');
    expect(formatNumber(45)).toBe('45');
    expect(formatRate(76_543, 'data')).toBe('76 kB/s');
  });
});
