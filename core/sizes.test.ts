import { describe, expect, it } from 'vitest';
import { formatBytes, parseSize } from './sizes';

describe('parseSize', () => {
  it.each([
    ['4096', 4096],
    ['1MiB', 1048576],
    ['512MiB', 536870912],
    ['1.75GiB', 1879048192],
    ['2.10GiB', 2254857830],
    ['2GB', 2_000_000_000],
    [' 8 mib ', 8388608],
    ['.5KiB', 512],
  ])('reads %s as %d bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it('passes whole numbers through and floors fractions', () => {
    expect(parseSize(1024)).toBe(1024);
    expect(parseSize(10.9)).toBe(10);
  });

  it.each(['', 'abc', '1.2.3MiB', '5 parsecs', '-1MiB'])(
    'rejects %j with a message naming the input',
    (text) => {
      expect(() => parseSize(text)).toThrow(`invalid size "${text}"`);
    },
  );
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1879048192, '1.75 GiB'],
    [536870912, '512 MiB'],
    [2254857830, '2.1 GiB'],
  ])('formats %d as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
