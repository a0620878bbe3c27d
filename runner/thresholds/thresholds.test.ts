import { describe, expect, it } from 'vitest';
import { passes, shouldAbort } from './evaluate';
import { parseDefinition, parseExpression, parseThresholdKey } from './parse';

describe('parseThresholdKey', () => {
  it('reads a plain metric', () => {
    expect(parseThresholdKey('http_req_duration')).toEqual({
      key: 'http_req_duration',
      metric: 'http_req_duration',
    });
  });

  it('trims spaces and quotes in sub-metric selectors', () => {
    expect(parseThresholdKey('http_req_duration{ status: "200", phase:\'idle\' }').tags).toEqual({
      status: '200',
      phase: 'idle',
    });
    expect(parseThresholdKey('http_req_duration{phase:idle,consistency:strong}')).toEqual({
      key: 'http_req_duration{phase:idle,consistency:strong}',
      metric: 'http_req_duration',
      tags: { phase: 'idle', consistency: 'strong' },
    });
  });

  it('splits a pair at its first colon', () => {
    expect(parseThresholdKey('m{url:http://x/y}').tags).toEqual({ url: 'http://x/y' });
  });

  it.each(['m{a:b', 'm{a:b}x', 'm{}', 'm{ab}'])('rejects the malformed selector %s', (key) => {
    expect(() => parseThresholdKey(key)).toThrow();
  });
});

describe('parseExpression', () => {
  it('finds the operator and number, spaces optional', () => {
    expect(parseExpression('p(95) < 500', 'trend')).toMatchObject({
      aggregation: 'p(95)',
      percentile: 95,
      operator: '<',
      value: 500,
    });
    expect(parseExpression('p(99.9)<=1.5', 'trend')).toMatchObject({
      percentile: 99.9,
      operator: '<=',
      value: 1.5,
    });
    expect(parseExpression('count>=-1', 'counter')).toMatchObject({ operator: '>=', value: -1 });
    expect(parseExpression('rate==0', 'rate')).toMatchObject({ operator: '==', value: 0 });
  });

  it('rejects aggregations the metric type does not have, listing the allowed ones', () => {
    expect(() => parseExpression('p(95)<1', 'counter')).toThrow(/use one of count, rate/);
    expect(() => parseExpression('avg<1', 'rate')).toThrow(/use one of rate/);
  });

  it('rejects malformed expressions', () => {
    expect(() => parseExpression('p(95)', 'trend')).toThrow(/no comparison operator/);
    expect(() => parseExpression('p(95)<abc', 'trend')).toThrow(/not a number/);
    expect(() => parseExpression('p(101)<1', 'trend')).toThrow(/between 0 and 100/);
  });

  it('reads the object form with abortOnFail and delayAbortEval', () => {
    expect(
      parseDefinition({ threshold: 'rate<0.01', abortOnFail: true, delayAbortEval: '10s' }, 'rate'),
    ).toMatchObject({
      abortOnFail: true,
      delayAbortEval: 10_000,
    });
  });
});

describe('evaluate', () => {
  it('compares and lets an uncomputable rate pass', () => {
    expect(passes({ operator: '<', value: 500 }, 499)).toBe(true);
    expect(passes({ operator: '<', value: 500 }, 500)).toBe(false);
    expect(passes({ operator: '<', value: 0.01 }, Number.NaN)).toBe(true);
  });

  it('aborts only after delayAbortEval', () => {
    const expr = parseDefinition(
      { threshold: 'rate<0.01', abortOnFail: true, delayAbortEval: '10s' },
      'rate',
    );
    expect(shouldAbort(expr, false, 5_000)).toBe(false);
    expect(shouldAbort(expr, false, 10_001)).toBe(true);
    expect(shouldAbort(expr, true, 10_001)).toBe(false);
  });
});
