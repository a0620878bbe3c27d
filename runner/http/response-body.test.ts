import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  bytesToText,
  compress,
  DecompressionError,
  decompress,
  joinChunks,
  responseBody,
  toArrayBuffer,
} from './response-body';

const enc = new TextEncoder();

describe('response bodies', () => {
  it('joins chunks in order', () => {
    const a = enc.encode('ab').buffer as ArrayBuffer;
    const b = enc.encode('cd').buffer as ArrayBuffer;
    expect(bytesToText(joinChunks([a, b]))).toBe('abcd');
    expect(joinChunks([]).byteLength).toBe(0);
  });

  it.each(['gzip', 'deflate', 'br'])('round-trips %s and undoes stacked encodings right to left', (alg) => {
    const data = enc.encode('hello '.repeat(100));
    expect(bytesToText(decompress(compress(data, [alg]), alg))).toBe('hello '.repeat(100));
    expect(bytesToText(decompress(compress(data, ['gzip', alg]), `gzip, ${alg}`))).toBe('hello '.repeat(100));
  });

  it('accepts raw deflate too', () => {
    const raw = zlib.deflateRawSync(enc.encode('x'));
    expect(bytesToText(decompress(raw, 'deflate'))).toBe('x');
  });

  it('a corrupt body is a DecompressionError (k6 code 1701)', () => {
    expect(() => decompress(enc.encode('not gzip'), 'gzip')).toThrow(DecompressionError);
  });

  it('toArrayBuffer copies exactly the view, never the pool around a small Buffer', () => {
    const small = compress(enc.encode('a'.repeat(1000)), ['gzip']);
    const ab = toArrayBuffer(small);
    expect(ab.byteLength).toBe(small.byteLength);
    expect(Buffer.from(ab).equals(Buffer.from(small))).toBe(true);
  });

  it('responseBody: text, binary, none, bodiless statuses and decompression failures', () => {
    const chunks = [enc.encode('{"a":1}').buffer as ArrayBuffer];
    expect(responseBody(chunks, 200, 'text', undefined)).toEqual({ body: '{"a":1}', failure: undefined });
    expect(responseBody(chunks, 200, 'binary', undefined).body).toBeInstanceOf(ArrayBuffer);
    expect(responseBody(chunks, 200, 'none', undefined).body).toBeNull();
    expect(responseBody(chunks, 204, 'text', undefined).body).toBeNull();
    expect(responseBody(chunks, 304, 'text', undefined).body).toBeNull();
    expect(responseBody([], 200, 'text', undefined).body).toBe('');
    const gz = compress(enc.encode('x'), ['gzip']);
    expect(responseBody([toArrayBuffer(gz)], 200, 'text', 'gzip').body).toBe('x');
    expect(responseBody(chunks, 200, 'text', 'gzip')).toMatchObject({ body: null });
    expect(responseBody(chunks, 200, 'text', 'gzip').failure).toMatch(
      /^error decompressing the response body \(gzip\)/,
    );
  });

  it('unknown encodings are passed through', () => {
    expect(bytesToText(decompress(enc.encode('x'), 'compress'))).toBe('x');
  });
});
