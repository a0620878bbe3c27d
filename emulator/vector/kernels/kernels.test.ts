// The WASM kernels against plain-JS references at many dims (remainders included), and the embedded bytes
// against the WAT source.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../random';
import { randomVectors, referenceDistance } from '../synthetic';
import { compileKernels } from './build-kernels';
import { kernelsFor, widenCodes } from './kernels';
import { KERNELS_WASM_BASE64 } from './kernels-wasm';

const DIMS = [1, 3, 4, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 768, 1000];
const ROWS = 37;

/** A memory with: query at 0, rows at 64 KiB, outputs and ids after them. */
function setup(dims: number, seed: number) {
  const memory = new WebAssembly.Memory({ initial: 256, maximum: 256, shared: true });
  const f32 = new Float32Array(memory.buffer);
  const u32 = new Uint32Array(memory.buffer);
  const i8 = new Int8Array(memory.buffer);
  const rows = randomVectors(ROWS, dims, seed);
  rows.fill(0, 5 * dims, 6 * dims); // row 5 is a zero vector
  const query = randomVectors(1, dims, seed + 100);
  const q = 0;
  const base = 65_536;
  const out = base + ROWS * dims * 4 + 64;
  const ids = out + ROWS * 4;
  f32.set(query, q >> 2);
  f32.set(rows, base >> 2);
  return { memory, f32, u32, i8, rows, query, q, base, out, ids, k: kernelsFor(memory) };
}

const unit = (v: Float32Array): Float32Array => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

describe('f32 kernels match a double-precision JS reference', () => {
  for (const dims of DIMS) {
    it(`cosine and euclidean_squared at ${dims} dims, contiguous and gathered`, () => {
      const s = setup(dims, dims);
      const qUnit = unit(s.query);
      s.f32.set(qUnit, s.q >> 2);
      const rowOf = (r: number) => s.rows.subarray(r * dims, (r + 1) * dims);
      const tol = (x: number) => 1e-5 * Math.max(1, Math.abs(x));

      s.k.cosF32(s.base, ROWS, dims, s.q, s.out);
      for (let r = 0; r < ROWS; r++) {
        const want = referenceDistance(rowOf(r), qUnit, 'cosine_distance');
        expect(Math.abs(s.f32[(s.out >> 2) + r] - want)).toBeLessThan(tol(want));
      }
      expect(s.f32[(s.out >> 2) + 5]).toBe(1);

      s.k.dotF32(s.base, ROWS, dims, s.q, s.out);
      for (let r = 0; r < ROWS; r++) {
        const want = rowOf(r).reduce((a, v, j) => a + v * qUnit[j], 0);
        expect(Math.abs(s.f32[(s.out >> 2) + r] - want)).toBeLessThan(1e-5 * dims);
      }

      s.k.l2F32(s.base, ROWS, dims, s.q, s.out);
      for (let r = 0; r < ROWS; r++) {
        const want = referenceDistance(rowOf(r), qUnit, 'euclidean_squared');
        expect(Math.abs(s.f32[(s.out >> 2) + r] - want)).toBeLessThan(tol(want) * dims);
      }

      const picks = [36, 0, 5, 17, 17, 2];
      s.u32.set(picks, s.ids >> 2);
      s.k.cosF32Ids(s.base, s.ids, picks.length, dims, s.q, s.out);
      picks.forEach((r, i) => {
        const want = referenceDistance(rowOf(r), qUnit, 'cosine_distance');
        expect(Math.abs(s.f32[(s.out >> 2) + i] - want)).toBeLessThan(tol(want));
      });
      s.k.l2F32Ids(s.base, s.ids, picks.length, dims, s.q, s.out);
      picks.forEach((r, i) => {
        const want = referenceDistance(rowOf(r), qUnit, 'euclidean_squared');
        expect(Math.abs(s.f32[(s.out >> 2) + i] - want)).toBeLessThan(tol(want) * dims);
      });
    });
  }
});

/** The quantiser's definition in JS float32 arithmetic (round half to even, as f32x4.nearest). */
function referenceCodes(x: Float32Array): Int8Array {
  let m = 0;
  for (const v of x) m = Math.max(m, Math.abs(v));
  const mult = m > 0 ? Math.fround(127 / m) : 0;
  return Int8Array.from(x, (v) => {
    const y = Math.fround(v * mult);
    const r = Math.round(y);
    return r - y === 0.5 && r % 2 !== 0 ? r - 1 : r;
  });
}

describe('int8 kernels', () => {
  for (const dims of DIMS) {
    it(`quantize and dot_i8 at ${dims} dims`, () => {
      const s = setup(dims, 7 * dims);
      const codes = s.ids + ROWS * 4 + 64;
      const scales = Math.ceil((codes + ROWS * dims) / 16) * 16 + 64;
      const norms = scales + ROWS * 4;
      s.k.quantize(s.base, ROWS, dims, true, codes, scales, norms);
      const expected: Int8Array[] = [];
      for (let r = 0; r < ROWS; r++) {
        const x = s.rows.subarray(r * dims, (r + 1) * dims);
        const want = referenceCodes(x);
        expected.push(want);
        expect(Array.from(s.i8.subarray(codes + r * dims, codes + (r + 1) * dims))).toEqual(Array.from(want));
        const norm = Math.hypot(...x);
        const maxAbs = Math.max(...Array.from(x, Math.abs));
        if (norm > 0) {
          expect(s.f32[(norms >> 2) + r]).toBeCloseTo(1 / norm, 5);
          expect(s.f32[(scales >> 2) + r]).toBeCloseTo(maxAbs / norm / 127, 6);
        } else {
          expect(s.f32[(norms >> 2) + r]).toBe(0);
          expect(s.f32[(scales >> 2) + r]).toBe(0);
        }
      }
      // Euclidean mode stores |x|^2 and the raw scale.
      s.k.quantize(s.base, 1, dims, false, codes, scales, norms);
      const x0 = s.rows.subarray(0, dims);
      expect(s.f32[norms >> 2]).toBeCloseTo(
        x0.reduce((a, v) => a + v * v, 0),
        3,
      );
      expect(s.f32[scales >> 2]).toBeCloseTo(Math.max(...Array.from(x0, Math.abs)) / 127, 6);

      // dot_i8 of every code row with row 3's codes, contiguous and gathered: exact integers.
      const qc = codes + 3 * dims;
      s.k.dotI8(codes, ROWS, dims, qc, s.out);
      const intDot = (a: Int8Array, b: Int8Array) => a.reduce((acc, v, j) => acc + v * b[j], 0);
      for (let r = 0; r < ROWS; r++) expect(s.f32[(s.out >> 2) + r]).toBe(intDot(expected[r], expected[3]));
      const picks = [9, 3, 36, 0];
      s.u32.set(picks, s.ids >> 2);
      s.k.dotI8Ids(codes, s.ids, picks.length, dims, qc, s.out);
      picks.forEach((r, i) => {
        expect(s.f32[(s.out >> 2) + i]).toBe(intDot(expected[r], expected[3]));
      });

      // residuals = |x * f - scale * codes| per row (f = 1/|x| for the normalised quantisation).
      const res = Math.ceil((norms + ROWS * 4) / 16) * 16 + 4096;
      s.k.quantize(s.base, ROWS, dims, true, codes, scales, norms);
      s.k.residuals(s.base, ROWS, dims, true, codes, scales, norms, res);
      for (let r = 0; r < ROWS; r++) {
        const f = s.f32[(norms >> 2) + r];
        const sc = s.f32[(scales >> 2) + r];
        let sum = 0;
        for (let j = 0; j < dims; j++)
          sum += (s.rows[r * dims + j] * f - sc * s.i8[codes + r * dims + j]) ** 2;
        expect(Math.abs(s.f32[(res >> 2) + r] - Math.sqrt(sum))).toBeLessThan(1e-5);
      }

      // estimate_i8 = c + w * norms[i] + b * scales[i] * dot, contiguous and gathered.
      const e = { scales, norms, c: 0.5, w: 2, b: -0.25 };
      s.k.quantize(s.base, ROWS, dims, true, codes, scales, norms);
      const want = (r: number) =>
        e.c +
        e.w * s.f32[(norms >> 2) + r] +
        e.b * s.f32[(scales >> 2) + r] * intDot(expected[r], expected[3]);
      // The estimate kernels take the query codes widened to i16.
      const q16 = Math.ceil((norms + ROWS * 4) / 16) * 16 + 64;
      widenCodes(s.i8, new Int16Array(s.memory.buffer), qc, q16, dims);
      const close = (got: number, x: number) =>
        expect(Math.abs(got - x)).toBeLessThan(1e-5 * Math.max(1, Math.abs(x)));
      s.k.estimateI8(codes, ROWS, dims, q16, s.out, e);
      for (let r = 0; r < ROWS; r++) close(s.f32[(s.out >> 2) + r], want(r));
      s.k.estimateI8Ids(codes, s.ids, picks.length, dims, q16, s.out, e);
      picks.forEach((r, i) => {
        close(s.f32[(s.out >> 2) + i], want(r));
      });
    });
  }

  it('extreme codes (+-127 in every lane) do not overflow the accumulators at 10752 dims', () => {
    const dims = 10_752;
    const memory = new WebAssembly.Memory({ initial: 4, maximum: 4, shared: true });
    const i8 = new Int8Array(memory.buffer);
    const f32 = new Float32Array(memory.buffer);
    i8.fill(-127, 0, dims);
    i8.fill(-127, 16_384, 16_384 + dims);
    kernelsFor(memory).dotI8(0, 1, dims, 16_384, 65_536 * 3);
    expect(f32[(65_536 * 3) >> 2]).toBe(127 * 127 * dims);
  });
});

describe('sign sketches', () => {
  for (const dims of [16, 32, 48, 128, 768, 1024]) {
    it(`signs and hamming match a JS reference at ${dims} dims (padding zeroed, every bit counted)`, () => {
      const s = setup(dims, dims + 7);
      const bytes = Math.ceil(dims / 128) * 16;
      const codes = s.ids + ROWS * 4;
      const sketches = codes + ROWS * dims;
      const random = seededRandom(dims);
      for (let i = 0; i < ROWS * dims; i++) s.i8[codes + i] = Math.floor(random() * 256) - 128;
      s.i8.fill(-1, sketches, sketches + ROWS * bytes); // stale bytes the kernel must overwrite
      s.k.signs(codes, ROWS, dims, sketches, bytes);
      const u8 = new Uint8Array(s.memory.buffer);
      const bit = (row: number, j: number) => (u8[sketches + row * bytes + (j >> 3)] >> (j & 7)) & 1;
      for (let r = 0; r < ROWS; r++) {
        for (let j = 0; j < dims; j++) expect(bit(r, j)).toBe(s.i8[codes + r * dims + j] < 0 ? 1 : 0);
        for (let b = dims / 8; b < bytes; b++) expect(u8[sketches + r * bytes + b]).toBe(0);
      }
      // Row 0's sketch as the query: its own distance is 0, every other the count of differing signs.
      s.k.hamming(sketches, ROWS, bytes, sketches, s.out);
      for (let r = 0; r < ROWS; r++) {
        let want = 0;
        for (let j = 0; j < dims; j++) want += bit(r, j) ^ bit(0, j);
        expect(s.u32[(s.out >> 2) + r]).toBe(want);
      }
      expect(s.u32[s.out >> 2]).toBe(0);
    });
  }
});

describe('widenCodes', () => {
  it('widens int8 codes staged in the upper half of their own i16 area without clobbering them', () => {
    const buffer = new SharedArrayBuffer(4096);
    const i8 = new Int8Array(buffer);
    const i16 = new Int16Array(buffer);
    const dims = 777;
    const codes = Array.from({ length: dims }, (_, j) => ((j * 37) % 255) - 127);
    const at = 64;
    i8.set(codes, at + dims);
    widenCodes(i8, i16, at + dims, at, dims);
    expect(Array.from(i16.subarray(at >> 1, (at >> 1) + dims))).toEqual(codes);
  });
});

describe('kernels-wasm.ts', () => {
  it('holds exactly the bytes kernels.wat compiles to (regenerate with build-kernels.ts)', async () => {
    const bytes = await compileKernels();
    expect(Buffer.from(KERNELS_WASM_BASE64, 'base64').equals(Buffer.from(bytes))).toBe(true);
    expect(readFileSync(new URL('./kernels-wasm.ts', import.meta.url), 'utf8')).toMatch(/^\/\/ Generated by/);
  });

  it('a seeded random generator is reproducible (used for every sample in the engine)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});
