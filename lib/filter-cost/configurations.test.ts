import { describe, expect, it } from 'vitest';
import { describeConfiguration, formatCount, parseCardinality, parseConfigurations } from './configurations';

describe('configuration names', () => {
  it('parses every kind: baselines, types, cardinalities, non-filterable twins', () => {
    expect(
      parseConfigurations(
        'baseline-head, int-2,string-10k,int-1M,string-unique,int-10k-unfiltered,baseline',
        2_000_000,
      ),
    ).toEqual([
      { name: 'baseline-head', attribute: null },
      { name: 'int-2', attribute: { type: 'int', cardinality: 2, filterable: true } },
      { name: 'string-10k', attribute: { type: 'string', cardinality: 10_000, filterable: true } },
      { name: 'int-1M', attribute: { type: 'int', cardinality: 1_000_000, filterable: true } },
      { name: 'string-unique', attribute: { type: 'string', cardinality: 2_000_000, filterable: true } },
      { name: 'int-10k-unfiltered', attribute: { type: 'int', cardinality: 10_000, filterable: false } },
      { name: 'baseline', attribute: null },
    ]);
  });

  it('reads and writes round cardinalities', () => {
    expect(['2', '10k', '100k', '1M', '12345', 'unique', 'x'].map((t) => parseCardinality(t, 50))).toEqual([
      2,
      10_000,
      100_000,
      1_000_000,
      12_345,
      50,
      null,
    ]);
    expect([2, 100, 10_000, 100_000, 2_000_000, 12_345].map(formatCount)).toEqual([
      '2',
      '100',
      '10k',
      '100k',
      '2M',
      '12345',
    ]);
  });

  it('describes a configuration in words', () => {
    const [base, str, twin] = parseConfigurations('baseline,string-unique,int-10k-unfiltered', 20_000);
    expect([base, str, twin].map((c) => describeConfiguration(c, 20_000))).toEqual([
      'no attribute',
      'string, unique values, filterable',
      'int, 10k values, not filterable',
    ]);
  });
});
