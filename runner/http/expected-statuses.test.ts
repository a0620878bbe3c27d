import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EXPECTED,
  ExpectedStatuses,
  expectedStatuses,
  toResponseCallback,
} from './expected-statuses';

describe('expected statuses', () => {
  it('the default callback accepts 200-399 and nothing else', () => {
    expect([199, 200, 302, 399, 400, 0].map((s) => DEFAULT_EXPECTED.matches(s))).toEqual([
      false,
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('mixes single statuses and ranges', () => {
    const cb = expectedStatuses([200, { min: 400, max: 404 }, 0]);
    expect([200, 201, 400, 404, 405, 0].map((s) => cb.matches(s))).toEqual([
      true,
      false,
      true,
      true,
      false,
      true,
    ]);
  });

  it('rejects non-integers and malformed ranges with the argument position', () => {
    expect(() => expectedStatuses([200.5])).toThrow('argument 1 must be an integer');
    expect(() => expectedStatuses([200, { min: 1 }])).toThrow('argument 2');
    expect(() => expectedStatuses(['200'])).toThrow('argument 1');
  });

  it('accepts only ExpectedStatuses or null as a response callback', () => {
    expect(toResponseCallback(null, 'x')).toBeNull();
    const cb = new ExpectedStatuses([]);
    expect(toResponseCallback(cb, 'x')).toBe(cb);
    expect(() => toResponseCallback(() => true, 'setResponseCallback')).toThrow(
      'setResponseCallback: unsupported responseCallback',
    );
  });
});
