import { describe, expect, it } from 'vitest';
import { EnvError } from '../env';
import { configKnobs, configLabel, formatCount, readFilterCostConfig } from './config';

function errorOf(env: Record<string, string>): EnvError {
  try {
    readFilterCostConfig(env);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error('expected an EnvError');
}

describe('readFilterCostConfig', () => {
  it('defaults to the real-service scale: 1M rows, int attribute with 100 values, the 0.1-100% sweep', () => {
    const c = readFilterCostConfig({});
    expect(c).toMatchObject({
      target: { kind: 'emulator', baseUrl: 'http://127.0.0.1:8787' },
      label: 'int-100',
      rows: 1_000_000,
      attribute: 'int',
      cardinality: 100,
      filterable: true,
      selectivities: [0.001, 0.01, 0.1, 0.5, 1],
      queryRate: 10,
      queryVus: 10,
      queryMaxVus: 10,
      consistency: 'eventual',
      topK: 10,
      dims: 768,
      seed: undefined,
      recallQueries: 10,
    });
  });

  it('resolves CARDINALITY=unique to ROWS and labels every kind of configuration', () => {
    expect(readFilterCostConfig({ ROWS: '5000', ATTRIBUTE: 'string', CARDINALITY: 'unique' })).toMatchObject({
      cardinality: 5000,
      label: 'string-unique',
    });
    expect(readFilterCostConfig({ ATTRIBUTE: 'none' }).label).toBe('none');
    expect(readFilterCostConfig({ CARDINALITY: '10000', FILTERABLE: '0' }).label).toBe('int-10k-unfiltered');
  });

  it.each([
    [{ ROWS: '1000', CARDINALITY: '2000' }, 'CARDINALITY', '2000 distinct values cannot fit in ROWS=1000'],
    [{ ATTRIBUTE: 'none', CARDINALITY: '2' }, 'CARDINALITY', 'has no effect with ATTRIBUTE=none'],
    [{ ATTRIBUTE: 'none', FILTERABLE: '0' }, 'FILTERABLE', 'has no effect with ATTRIBUTE=none'],
    [{ ATTRIBUTE: 'float' }, 'ATTRIBUTE', 'use one of none, int, string'],
    [{ SELECTIVITIES: '0.1,150' }, 'SELECTIVITIES', '"150" is not a percentage of rows matching'],
    [{ SELECTIVITIES: '1,,2' }, 'SELECTIVITIES', '"" is not a percentage'],
    [{ SELECTIVITIES: '1,1.0' }, 'SELECTIVITIES', '1.0 is listed twice'],
    [{ CONSISTENCY: 'sometimes' }, 'CONSISTENCY', 'use one of eventual, strong'],
    [{ QUERY_VUS: '8', QUERY_MAX_VUS: '4' }, 'QUERY_MAX_VUS', '4 is below QUERY_VUS=8'],
    [{ ROWS: '0' }, 'ROWS', 'out of range'],
    [{ TURBOPUFFER_BASE_URL: 'http://10.0.0.1:8787' }, 'TURBOPUFFER_BASE_URL', 'not a loopback address'],
  ])('refuses %j naming %s', (env, variable, message) => {
    const error = errorOf(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(message);
  });

  it('lists every knob under its variable name, with the drawn seed', () => {
    const knobs = configKnobs(readFilterCostConfig({ ROWS: '2000', ATTRIBUTE: 'none' }), 99);
    expect(knobs).toMatchObject({
      ROWS: 2000,
      ATTRIBUTE: 'none',
      CARDINALITY: null,
      FILTERABLE: null,
      SEED: 99,
    });
    expect(knobs.SELECTIVITIES).toBe('0.1,1,10,50,100');
    expect(Object.keys(knobs)).toHaveLength(24);
  });
});

describe('labels', () => {
  it('shortens round counts', () => {
    expect([2, 100, 10000, 100000, 2_500_000, 12345].map(formatCount)).toEqual([
      '2',
      '100',
      '10k',
      '100k',
      '2.5M',
      '12345',
    ]);
    expect(configLabel('int', 1, 1, true)).toBe('int-1');
  });
});
