import { describe, expect, it } from 'vitest';
import { encodeBody, encodeForm, encodeStringInSlices, file, queryEscape } from './request-body';

const text = (b: ArrayBuffer | null) => (b ? Buffer.from(b).toString('utf8') : null);

describe('request bodies', () => {
  it('strings are UTF-8 without a content type', () => {
    const e = encodeBody('héllo', () => {});
    expect(text(e.bytes)).toBe('héllo');
    expect(e.bytes?.byteLength).toBe(6);
    expect(e.contentType).toBeUndefined();
  });

  it('ArrayBuffers are copied so the script keeps its buffer after the transfer', () => {
    const src = new Uint8Array([1, 2, 3]).buffer;
    const e = encodeBody(src, () => {});
    expect(e.bytes).not.toBe(src);
    expect([...new Uint8Array(e.bytes as ArrayBuffer)]).toEqual([1, 2, 3]);
  });

  it('null and undefined mean no body', () => {
    expect(encodeBody(null, () => {}).bytes).toBeNull();
    expect(encodeBody(undefined, () => {}).bytes).toBeNull();
  });

  it('objects are form-urlencoded with sorted keys, repeated array keys and Go escaping', () => {
    const warnings: string[] = [];
    const e = encodeBody({ b: 'x y', a: [1, true], c: null, d: { n: 1 }, e: "it's*" }, (w) =>
      warnings.push(w),
    );
    expect(e.contentType).toBe('application/x-www-form-urlencoded');
    expect(text(e.bytes)).toBe('a=1&a=true&b=x+y&c=&d=&e=it%27s%2A');
    expect(warnings).toEqual(['request body field "d" is a nested object; it is sent as an empty value']);
    expect(queryEscape('a&b=c/~')).toBe('a%26b%3Dc%2F~');
    expect(encodeForm({}, () => {})).toBe('');
  });

  it('objects with http.file() values become multipart/form-data', () => {
    const e = encodeBody(
      { field: 'v', upload: file('DATA', 'a.txt', 'text/plain') },
      () => {},
      () => 'BOUNDARY',
    );
    expect(e.contentType).toBe('multipart/form-data; boundary=BOUNDARY');
    expect(text(e.bytes)).toBe(
      '--BOUNDARY\r\nContent-Disposition: form-data; name="field"\r\n\r\nv\r\n' +
        '--BOUNDARY\r\nContent-Disposition: form-data; name="upload"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nDATA\r\n' +
        '--BOUNDARY--\r\n',
    );
  });

  it('http.file defaults to application/octet-stream', () => {
    expect(file(new ArrayBuffer(2)).content_type).toBe('application/octet-stream');
    expect(() => file(3)).toThrow('http.file: data must be a string or an ArrayBuffer');
  });

  it('encodes a large string in slices to the same UTF-8 bytes, never splitting a surrogate pair', async () => {
    const encode = (t: string) => Buffer.from(new TextEncoder().encode(t));
    // Slices of 4 chars: the pair at index 3-4 straddles the first boundary; a lone surrogate becomes U+FFFD.
    const text = 'abc\u{1F600}déf\uD800xyz€'.repeat(3);
    for (const slice of [1, 2, 3, 4, 5, 1000]) {
      expect(Buffer.from(await encodeStringInSlices(text, slice)), `slice ${slice}`).toEqual(encode(text));
    }
    expect((await encodeStringInSlices('')).byteLength).toBe(0);
  });
});
