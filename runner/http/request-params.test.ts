import { describe, expect, it } from 'vitest';
import type { HttpModuleOptions } from '../modules/module-host';
import { defaultHttpOptions } from './default-options';
import { ExpectedStatuses } from './expected-statuses';
import { DEFAULT_TIMEOUT_MS, normaliseParams, RequestParamsError, tagsFrom } from './request-params';

const options: HttpModuleOptions = { ...defaultHttpOptions(), userAgent: 'ua', systemTags: [] };

describe('request params', () => {
  it('defaults: 60 s timeout, text bodies, module redirects and throw, module callback', () => {
    const p = normaliseParams(undefined, options);
    expect(p).toMatchObject({
      headers: [],
      tags: {},
      timeoutMs: DEFAULT_TIMEOUT_MS,
      responseType: 'text',
      maxRedirects: 10,
      redirectsExplicit: false,
      compression: [],
      responseCallback: undefined,
      throw: false,
    });
    expect(normaliseParams(null, { ...options, discardResponseBodies: true, throw: true })).toMatchObject({
      responseType: 'none',
      throw: true,
    });
  });

  it('timeout accepts Go durations and milliseconds', () => {
    expect(normaliseParams({ timeout: '1m30s' }, options).timeoutMs).toBe(90_000);
    expect(normaliseParams({ timeout: 250 }, options).timeoutMs).toBe(250);
    expect(normaliseParams({ timeout: '1500' }, options).timeoutMs).toBe(1500);
    expect(() => normaliseParams({ timeout: 'soon' }, options)).toThrow(RequestParamsError);
    expect(() => normaliseParams({ timeout: '-1s' }, options)).toThrow('must not be negative');
  });

  it('headers are stringified, null headers dropped; tags must be scalars', () => {
    expect(normaliseParams({ headers: { A: 1, B: true, C: null } }, options).headers).toEqual([
      ['A', '1'],
      ['B', 'true'],
    ]);
    expect(tagsFrom({ a: 1, b: false, c: 'x' }, 'params.tags')).toEqual({ a: '1', b: 'false', c: 'x' });
    expect(() => tagsFrom({ a: {} }, 'params.tags')).toThrow('invalid value for tag "a"');
  });

  it('responseType, redirects, compression and auth are checked', () => {
    expect(() => normaliseParams({ responseType: 'json' }, options)).toThrow('invalid responseType "json"');
    expect(normaliseParams({ redirects: 0 }, options)).toMatchObject({
      maxRedirects: 0,
      redirectsExplicit: true,
    });
    expect(() => normaliseParams({ redirects: -1 }, options)).toThrow('non-negative integer');
    expect(normaliseParams({ compression: 'gzip, br' }, options).compression).toEqual(['gzip', 'br']);
    expect(() => normaliseParams({ compression: 'lz4' }, options)).toThrow(
      'unknown compression algorithm "lz4"',
    );
    expect(normaliseParams({ auth: 'basic' }, options).auth).toBe('basic');
    expect(normaliseParams({ auth: 'digest' }, options).auth).toBe('digest');
    expect(() => normaliseParams({ auth: 'ntlm' }, options)).toThrow('not supported');
  });

  it('responseCallback: ExpectedStatuses or null, anything else throws', () => {
    const cb = new ExpectedStatuses([{ min: 200, max: 200 }]);
    expect(normaliseParams({ responseCallback: cb }, options).responseCallback).toBe(cb);
    expect(normaliseParams({ responseCallback: null }, options).responseCallback).toBeNull();
    expect(() => normaliseParams({ responseCallback: () => true }, options)).toThrow(
      'unsupported responseCallback',
    );
  });

  it('request cookies in both forms', () => {
    expect(
      normaliseParams({ cookies: { a: '1', b: { value: '2', replace: true } } }, options).cookies,
    ).toEqual([
      { name: 'a', value: '1', replace: false },
      { name: 'b', value: '2', replace: true },
    ]);
  });
});
