import { describe, expect, it } from 'vitest';
import { formatBytesOrDash, formatErrorsByStatus, formatFixed, formatMs, formatPercent } from './format';

describe('shared number formats', () => {
  it('prints whole milliseconds bare and others to one decimal', () => {
    expect([formatMs(8), formatMs(4.25), formatMs(null)]).toEqual(['8ms', '4.3ms', '—']);
  });

  it('keeps one significant digit below 0.1%', () => {
    expect([formatPercent(0), formatPercent(0.45), formatPercent(0.0004)]).toEqual(['0%', '45.0%', '0.04%']);
  });

  it('prints fixed decimals with a unit, bytes in binary units, and a dash for unknown figures', () => {
    expect([formatFixed(3088, 1), formatFixed(0.5, 2, ' s'), formatFixed(null, 2, ' s')]).toEqual([
      '3088.0',
      '0.50 s',
      '—',
    ]);
    expect([formatBytesOrDash(3.5 * 2 ** 20), formatBytesOrDash(null)]).toEqual(['3.5 MiB', '—']);
    expect(formatErrorsByStatus({ '429': 812, '5xx': 3 })).toBe('429: 812, 5xx: 3');
  });
});
