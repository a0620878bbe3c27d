import { describe, expect, it } from 'vitest';
import { b64decode, b64encode, createEncodingModule } from './encoding';

describe('k6/encoding', () => {
  it.each([
    ['std', 'aGk/Pz4+'],
    ['rawstd', 'aGk/Pz4+'],
    ['url', 'aGk_Pz4-'],
    ['rawurl', 'aGk_Pz4-'],
  ])('encodes %s', (enc, out) => {
    expect(b64encode('hi??>>', enc)).toBe(out);
  });

  it('pads only the padded variants', () => {
    expect(b64encode('ab')).toBe('YWI=');
    expect(b64encode('ab', 'url')).toBe('YWI=');
    expect(b64encode('ab', 'rawstd')).toBe('YWI');
    expect(b64encode('ab', 'rawurl')).toBe('YWI');
    expect(b64encode('ab', 'nonsense')).toBe('YWI=');
  });

  it('encodes strings as UTF-8 and ArrayBuffers as bytes', () => {
    expect(b64encode('é')).toBe('w6k=');
    expect(b64encode(new Uint8Array([0xff, 0xfe]).buffer)).toBe('//4=');
  });

  it('decodes to an ArrayBuffer, or a string with format "s"', () => {
    const buf = b64decode('//4=') as ArrayBuffer;
    expect(buf).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(buf)]).toEqual([0xff, 0xfe]);
    expect(b64decode('w6k=', 'std', 's')).toBe('é');
    expect(b64decode('YWI', 'rawurl', 's')).toBe('ab');
    expect(b64decode('YW\r\nI=', 'std', 's')).toBe('ab');
  });

  it('decodes strictly like Go', () => {
    expect(() => b64decode('YWI')).toThrow('padding is required');
    expect(() => b64decode('YWI=', 'rawstd')).toThrow('padding "=" is not allowed');
    expect(() => b64decode('aGk_Pz4-', 'std')).toThrow('standard alphabet');
    expect(() => b64decode('a', 'rawstd')).toThrow('impossible');
  });

  it('exposes named and default exports', () => {
    const m = createEncodingModule() as { default: Record<string, unknown>; b64encode: unknown };
    expect(m.default.b64encode).toBe(m.b64encode);
  });
});
