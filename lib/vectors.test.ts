import { describe, expect, it } from 'vitest';
import { base64, float32LeBytes, queryVector, rowVector, rowVectorsBytes } from './vectors';

describe('float32LeBytes + base64 (the wire form of a vector)', () => {
  it('encodes a known vector byte for byte', () => {
    // 1.0 = 0x3F800000, -2.0 = 0xC0000000, 0.5 = 0x3F000000, 0 = 0: little-endian bytes, then standard base64.
    const bytes = float32LeBytes([1, -2, 0.5, 0]);
    expect([...new Uint8Array(bytes)]).toEqual([0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, 0, 0, 0, 0x3f, 0, 0, 0, 0]);
    expect(base64(bytes)).toBe('AACAPwAAAMAAAAA/AAAAAA==');
  });

  it.each([0, 1, 2, 3, 4, 5, 97])('matches Node base64 for %d bytes', (n) => {
    const bytes = new Uint8Array(n).map((_, i) => (i * 37 + 11) & 255);
    expect(base64(bytes.buffer)).toBe(Buffer.from(bytes).toString('base64'));
  });
});

describe('rowVector', () => {
  it('is a pure function of (seed, id): pinned values for seed 42, id 7', () => {
    const v = rowVector(42, 7, 4);
    expect(v).toEqual(rowVector(42, 7, 4));
    expect(base64(float32LeBytes(v))).toBe(PINNED_42_7);
  });

  it('differs between ids and between seeds, and stays in [-1, 1)', () => {
    const a = rowVector(1, 0, 768);
    expect(a).not.toEqual(rowVector(1, 1, 768));
    expect(a).not.toEqual(rowVector(2, 0, 768));
    expect(Math.min(...a)).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...a)).toBeLessThan(1);
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    expect(Math.abs(mean)).toBeLessThan(0.1);
  });

  it('keeps ids above 2^32 apart from their low word', () => {
    expect(rowVector(1, 5, 8)).not.toEqual(rowVector(1, 2 ** 32 + 5, 8));
  });

  it('is exact in float32 (the bytes decode back to the same numbers)', () => {
    const v = rowVector(9, 123, 768);
    const back = new Float32Array(float32LeBytes(v));
    expect([...back]).toEqual(v);
  });
});

describe('rowVectorsBytes', () => {
  it('lays rows back to back in id order, each as float32LeBytes(rowVector)', () => {
    const dims = 5;
    const bytes = rowVectorsBytes(3, 100, 3, dims);
    expect(bytes.byteLength).toBe(3 * dims * 4);
    for (let r = 0; r < 3; r++) {
      expect(base64(bytes, r * dims * 4, dims * 4)).toBe(base64(float32LeBytes(rowVector(3, 100 + r, dims))));
    }
  });
});

describe('queryVector', () => {
  it('uses multiples of 1/1000 in [-1, 1) and a stream distinct from the rows', () => {
    const q = queryVector(42, 0, 768);
    expect(
      q.every(
        (x) => Number.isInteger(Math.round(x * 1000)) && Math.abs(x * 1000 - Math.round(x * 1000)) < 1e-9,
      ),
    ).toBe(true);
    expect(Math.min(...q)).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...q)).toBeLessThan(1);
    expect(q).toEqual(queryVector(42, 0, 768));
    expect(q).not.toEqual(queryVector(42, 1, 768));
    expect(JSON.stringify(q).length).toBeLessThan(768 * 7);
  });
});

// Computed once by this implementation and pinned, so a change to the generator is a visible, deliberate break.
const PINNED_42_7 = 'JF88v1AaP760ELQ+UGCFPg=='; // [-0.7358267307281494, -0.18662381172180176, 0.3516899347305298, 0.260500431060791]
