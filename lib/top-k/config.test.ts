import { describe, expect, it } from 'vitest';
import { readTopKConfig } from './config';

const LOOPBACK = { TURBOPUFFER_BASE_URL: 'http://127.0.0.1:8787' };

describe('readTopKConfig', () => {
  it('sweeps 1, 10, 100 and 1000 at strong consistency by default', () => {
    const c = readTopKConfig(LOOPBACK);
    expect([c.topKs, c.consistency, c.rows]).toEqual([[1, 10, 100, 1000], 'strong', 100_000]);
  });

  it.each([
    ['10,1,100', [1, 10, 100]],
    [' 5 , 50 ', [5, 50]],
    ['10000', [10000]],
  ])('reads TOP_KS=%s as %j (ascending)', (text, expected) => {
    expect(readTopKConfig({ ...LOOPBACK, TOP_KS: text }).topKs).toEqual(expected);
  });

  it.each([
    ['0,10', 'TOP_KS: "0,10" is not a list of whole numbers from 1 to 10000, such as 1,10,100'],
    ['10,x', 'TOP_KS: "10,x" is not a list of whole numbers from 1 to 10000, such as 1,10,100'],
    ['10001', 'TOP_KS: "10001" is not a list of whole numbers from 1 to 10000, such as 1,10,100'],
    ['10,10', 'TOP_KS: "10,10" names a value twice'],
  ])('refuses TOP_KS=%s, naming it', (text, message) => {
    expect(() => readTopKConfig({ ...LOOPBACK, TOP_KS: text })).toThrow(message);
  });

  it('refuses a top_k above the rows written, naming both knobs', () => {
    expect(() => readTopKConfig({ ...LOOPBACK, ROWS: '50', TOP_KS: '10,100' })).toThrow(
      'TOP_KS: top_k 100 is more than ROWS=50: a query cannot return it',
    );
  });

  it('refuses TOP_K, which the other experiments read: this one sweeps TOP_KS', () => {
    expect(() => readTopKConfig({ ...LOOPBACK, TOP_K: '10' })).toThrow(
      'TOP_K: is not a knob of build/top-k.js',
    );
  });
});
