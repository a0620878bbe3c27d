import { describe, expect, it } from 'vitest';
import { parseCsvArgument } from './csv';
import { TimeFormatter } from './output';

describe('TimeFormatter', () => {
  // Epoch milliseconds in a float64 carry about 0.2 µs, so only the first digits of the fraction are exact.
  it('prints RFC 3339 with a nanosecond fraction, trailing zeros trimmed, in the local offset', () => {
    const f = new TimeFormatter();
    const ms = Date.UTC(2026, 7, 21, 7, 43, 41) + 123.456789;
    const text = f.format(ms);
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:41\.12345\d{1,4}(Z|[+-]\d\d:\d\d)$/);
    expect(new Date(text).getTime()).toBe(Date.UTC(2026, 7, 21, 7, 43, 41, 123));
    expect(f.format(Date.UTC(2026, 7, 21, 7, 43, 42) + 500)).toMatch(/:42\.5(Z|[+-])/);
    expect(f.format(Date.UTC(2026, 7, 21, 7, 43, 42))).toMatch(/:42(Z|[+-])/);
  });
});

describe('parseCsvArgument', () => {
  it('reads a bare file name or key=value options, and K6_CSV_* defaults', () => {
    expect(parseCsvArgument('out.csv', {})).toEqual({
      fileName: 'out.csv',
      saveInterval: 1000,
      timeFormat: 'unix',
    });
    expect(parseCsvArgument('fileName=a.csv.gz,saveInterval=2s,timeFormat=rfc3339_nano', {})).toEqual({
      fileName: 'a.csv.gz',
      saveInterval: 2000,
      timeFormat: 'rfc3339_nano',
    });
    expect(
      parseCsvArgument('', { K6_CSV_FILENAME: 'env.csv', K6_CSV_TIME_FORMAT: 'unix_milli' }),
    ).toMatchObject({
      fileName: 'env.csv',
      timeFormat: 'unix_milli',
    });
  });

  it('names a bad option or time format', () => {
    expect(() => parseCsvArgument('file=a.csv,color=red', {})).toThrow(/unknown csv output option "color"/);
    expect(() => parseCsvArgument('timeFormat=iso', {})).toThrow(/invalid csv timeFormat "iso"/);
  });
});
