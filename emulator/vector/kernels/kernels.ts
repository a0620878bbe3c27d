// Typed access to the SIMD kernels (kernels.wat): one compiled module per thread, one instance per segment memory.
import { KERNELS_WASM_BASE64 } from './kernels-wasm';

/** The kernels of one memory. Every argument named like an address is a byte offset in that memory. */
export interface Kernels {
  /** out[i] = 1 - dot(row i, q) / |row i| (q unit length; zero rows score 1), rows contiguous at base. */
  cosF32(base: number, n: number, dims: number, q: number, out: number): void;
  /** As cosF32 for the rows whose numbers (u32, relative to base) are at ids. */
  cosF32Ids(base: number, ids: number, n: number, dims: number, q: number, out: number): void;
  /** out[i] = dot(row i, q), rows contiguous at base. */
  dotF32(base: number, n: number, dims: number, q: number, out: number): void;
  /** out[i] = sum((row i - q)^2), rows contiguous at base. */
  l2F32(base: number, n: number, dims: number, q: number, out: number): void;
  l2F32Ids(base: number, ids: number, n: number, dims: number, q: number, out: number): void;
  /** out[i] = int8 dot of code row i (stride dims bytes) with the codes at q, as f32. */
  dotI8(base: number, n: number, dims: number, q: number, out: number): void;
  dotI8Ids(base: number, ids: number, n: number, dims: number, q: number, out: number): void;
  /**
   * int8 distance estimate: out[i] = c + w * norms[i] + b * scales[i] * dot(code row i, q), where q holds the
   * query's codes widened to i16 (see widenCodes) and scales/norms point at row 0's f32 entries (c, w, b per
   * metric: see the WAT).
   */
  estimateI8(base: number, n: number, dims: number, q: number, out: number, e: Estimate): void;
  /**
   * Per row, |x * f - scale * codes| (f = 1/|x| from norms when normalize, else 1): the quantisation error that
   * bounds int8 estimates. Call after quantize on the same rows.
   */
  residuals(
    src: number,
    n: number,
    dims: number,
    normalize: boolean,
    codes: number,
    scales: number,
    norms: number,
    out: number,
  ): void;
  estimateI8Ids(
    base: number,
    ids: number,
    n: number,
    dims: number,
    q: number,
    out: number,
    e: Estimate,
  ): void;
  /**
   * int8 codes of n f32 rows (code = round(x * 127 / max|x|)) plus per-row f32 scale (codes * scale = the row,
   * normalised first when normalize) and norm (1/|x| when normalize, |x|^2 otherwise).
   */
  quantize(
    src: number,
    n: number,
    dims: number,
    normalize: boolean,
    codes: number,
    scales: number,
    norms: number,
  ): void;
  /**
   * Sign sketches of n code rows (stride dims bytes; dims a multiple of 16): bit j set when code j is negative,
   * each sketch `bytes` long (a multiple of 16, zero-padded).
   */
  signs(codes: number, n: number, dims: number, out: number, bytes: number): void;
  /** out[i] = u32 Hamming distance between sketch row i at base (stride bytes) and the sketch at q. */
  hamming(base: number, n: number, bytes: number, q: number, out: number): void;
}

/** Per-query constants of estimateI8 and where the per-row scales and norms start. */
export interface Estimate {
  scales: number;
  norms: number;
  c: number;
  w: number;
  b: number;
}

interface KernelExports {
  residuals(...args: number[]): void;
  dot_f32(base: number, n: number, dims: number, q: number, out: number): void;
  estimate_i8(...args: number[]): void;
  estimate_i8_ids(...args: number[]): void;
  cos_f32(base: number, n: number, dims: number, q: number, out: number): void;
  cos_f32_ids(base: number, ids: number, n: number, dims: number, q: number, out: number): void;
  l2_f32(base: number, n: number, dims: number, q: number, out: number): void;
  l2_f32_ids(base: number, ids: number, n: number, dims: number, q: number, out: number): void;
  dot_i8(base: number, n: number, dims: number, q: number, out: number): void;
  dot_i8_ids(base: number, ids: number, n: number, dims: number, q: number, out: number): void;
  signs(codes: number, n: number, dims: number, out: number, bytes: number): void;
  hamming(base: number, n: number, bytes: number, q: number, out: number): void;
  quantize(
    src: number,
    n: number,
    dims: number,
    normalize: number,
    codes: number,
    scales: number,
    norms: number,
  ): void;
}

/**
 * Widens dims int8 codes at byte address `from` to i16 at `to` (2-aligned). The areas may overlap when
 * `to <= from - dims`, as in a slot (codes staged in the upper half of the i16 area): element j goes to bytes
 * to+2j..to+2j+1, never past from+j, so ascending order reads every code before it is overwritten.
 */
export function widenCodes(i8: Int8Array, i16: Int16Array, from: number, to: number, dims: number): void {
  const t = to >> 1;
  for (let j = 0; j < dims; j++) i16[t + j] = i8[from + j];
}

let compiled: WebAssembly.Module | undefined;

function kernelModule(): WebAssembly.Module {
  if (!compiled) {
    const bytes = Uint8Array.from(atob(KERNELS_WASM_BASE64), (c) => c.charCodeAt(0));
    compiled = new WebAssembly.Module(bytes);
  }
  return compiled;
}

/** Instantiates the kernels on one shared memory (cheap: the module is compiled once per thread). */
export function kernelsFor(memory: WebAssembly.Memory): Kernels {
  const instance = new WebAssembly.Instance(kernelModule(), { env: { mem: memory } });
  // Instance exports are typed `ExportValue`; the WAT above fixes their real signatures.
  const x = instance.exports as unknown as KernelExports;
  // Addresses may exceed 2^31: `| 0` hands wasm the same bits as a (negative) i32, which it reads as unsigned.
  return {
    cosF32: (base, n, dims, q, out) => x.cos_f32(base | 0, n, dims, q | 0, out | 0),
    cosF32Ids: (base, ids, n, dims, q, out) => x.cos_f32_ids(base | 0, ids | 0, n, dims, q | 0, out | 0),
    dotF32: (base, n, dims, q, out) => x.dot_f32(base | 0, n, dims, q | 0, out | 0),
    l2F32: (base, n, dims, q, out) => x.l2_f32(base | 0, n, dims, q | 0, out | 0),
    l2F32Ids: (base, ids, n, dims, q, out) => x.l2_f32_ids(base | 0, ids | 0, n, dims, q | 0, out | 0),
    dotI8: (base, n, dims, q, out) => x.dot_i8(base | 0, n, dims, q | 0, out | 0),
    dotI8Ids: (base, ids, n, dims, q, out) => x.dot_i8_ids(base | 0, ids | 0, n, dims, q | 0, out | 0),
    estimateI8: (base, n, dims, q, out, e) =>
      x.estimate_i8(base | 0, n, dims, q | 0, out | 0, e.scales | 0, e.norms | 0, e.c, e.w, e.b),
    estimateI8Ids: (base, ids, n, dims, q, out, e) =>
      x.estimate_i8_ids(base | 0, ids | 0, n, dims, q | 0, out | 0, e.scales | 0, e.norms | 0, e.c, e.w, e.b),
    residuals: (src, n, dims, normalize, codes, scales, norms, out) =>
      x.residuals(src | 0, n, dims, normalize ? 1 : 0, codes | 0, scales | 0, norms | 0, out | 0),
    quantize: (src, n, dims, normalize, codes, scales, norms) =>
      x.quantize(src | 0, n, dims, normalize ? 1 : 0, codes | 0, scales | 0, norms | 0),
    signs: (codes, n, dims, out, bytes) => x.signs(codes | 0, n, dims, out | 0, bytes),
    hamming: (base, n, bytes, q, out) => x.hamming(base | 0, n, bytes, q | 0, out | 0),
  };
}
