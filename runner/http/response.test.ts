import { describe, expect, it } from 'vitest';
import { canonicalHeaderName, canonicalHeaders, Response, type ResponseInit } from './response';

function init(over: Partial<ResponseInit> = {}): ResponseInit {
  return {
    status: 200,
    statusText: '200 OK',
    url: 'http://h/',
    proto: 'HTTP/1.1',
    headers: {},
    cookies: {},
    body: '{"a":{"b":[1,2]}}',
    timings: {
      blocked: 0,
      looking_up: 0,
      connecting: 0,
      tls_handshaking: 0,
      sending: 0,
      waiting: 0,
      receiving: 0,
      duration: 0,
    },
    remoteIp: '127.0.0.1',
    remotePort: 80,
    tlsVersion: '',
    tlsCipherSuite: '',
    error: '',
    errorCode: 0,
    request: () => ({ method: 'GET', url: 'http://h/', headers: {}, body: '', cookies: {} }),
    ...over,
  };
}

describe('Response', () => {
  it('canonicalises header names like Go and joins repeats with ", "', () => {
    expect(canonicalHeaderName('content-TYPE')).toBe('Content-Type');
    expect(canonicalHeaderName('x-request-id')).toBe('X-Request-Id');
    expect(canonicalHeaderName('bad header')).toBe('bad header');
    expect(canonicalHeaders(['set-cookie', 'a=1', 'Set-Cookie', 'b=2', 'etag', 'x'])).toEqual({
      'Set-Cookie': 'a=1, b=2',
      Etag: 'x',
    });
  });

  it('json() parses the body and applies GJSON selectors', () => {
    const r = new Response(init());
    expect(r.json()).toEqual({ a: { b: [1, 2] } });
    expect(r.json('a.b.#')).toBe(2);
    expect(r.json('a.c')).toBeUndefined();
  });

  it('json() reads binary bodies and follows a replaced body', () => {
    const r = new Response(init({ body: new TextEncoder().encode('[1]').buffer as ArrayBuffer }));
    expect(r.json()).toEqual([1]);
    r.body = '[2]';
    expect(r.json()).toEqual([2]);
  });

  it('json() on a null body throws k6 message', () => {
    expect(() => new Response(init({ body: null })).json()).toThrow(
      "the body is null so we can't transform it to JSON",
    );
  });

  it('error_code is 1000 + status for HTTP errors', () => {
    expect(new Response(init({ status: 503 })).error_code).toBe(1503);
    expect(new Response(init({ status: 0, errorCode: 1212 })).error_code).toBe(1212);
    expect(new Response(init()).error_code).toBe(0);
  });
});
