// Seeded random vectors: any VU (or a later rerun) regenerates exactly the same vector for (seed, id), as raw
// little-endian float32 bytes (the turbopuffer base64 wire form) or as a short JSON-friendly query vector. Pure.

/** 32-bit integer hash (the "lowbias32" finaliser): spreads nearby seeds and ids over the whole state space. */
export function hash32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Mulberry32: a small, fast 32-bit PRNG, good enough for benchmark data (not for cryptography). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** The generator for one row: ids up to 2^53 keep distinct streams (high and low words are both hashed in). */
function rowGenerator(seed: number, id: number): () => number {
  const low = id >>> 0;
  const high = Math.floor(id / 2 ** 32) >>> 0;
  return mulberry32(hash32(hash32(seed ^ hash32(high)) ^ low));
}

/** A uniform value in [-1, 1) with 24 significant bits, so it is exact in float32. */
function unit(next: () => number): number {
  return (next() >>> 8) / 2 ** 23 - 1;
}

/** The vector of row `id`: `dims` components uniform in [-1, 1). */
export function rowVector(seed: number, id: number, dims: number): number[] {
  const next = rowGenerator(seed, id);
  const out = new Array<number>(dims);
  for (let i = 0; i < dims; i++) out[i] = unit(next);
  return out;
}

/** Little-endian float32 bytes of the rows `firstId .. firstId + count - 1`, back to back (4 * dims each). */
export function rowVectorsBytes(seed: number, firstId: number, count: number, dims: number): ArrayBuffer {
  const buffer = new ArrayBuffer(count * dims * 4);
  const view = new DataView(buffer);
  let offset = 0;
  for (let r = 0; r < count; r++) {
    const next = rowGenerator(seed, firstId + r);
    for (let i = 0; i < dims; i++, offset += 4) view.setFloat32(offset, unit(next), true);
  }
  return buffer;
}

/** Little-endian float32 bytes of one vector. */
export function float32LeBytes(values: readonly number[]): ArrayBuffer {
  const buffer = new ArrayBuffer(values.length * 4);
  const view = new DataView(buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i], true);
  return buffer;
}

/**
 * Query vector number `n`: components are multiples of 1/1000 in [-1, 1), so the JSON body stays short
 * (about 6 characters per component). Drawn from a stream disjoint from the rows' (the seed is salted).
 */
export function queryVector(seed: number, n: number, dims: number): number[] {
  const next = rowGenerator(hash32(seed ^ 0x51ed270b), n);
  const out = new Array<number>(dims);
  for (let i = 0; i < dims; i++) out[i] = Math.floor((next() / 2 ** 32) * 2000 - 1000) / 1000;
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Standard padded base64 of a slice of bytes. The k6 scripts use k6/encoding's native encoder on the hot path;
 * this one serves pure code and tests.
 */
export function base64(buffer: ArrayBuffer, offset = 0, length = buffer.byteLength - offset): string {
  const bytes = new Uint8Array(buffer, offset, length);
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
  }
  if (i < bytes.length) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
    out += i + 1 < bytes.length ? `${ALPHABET[(n >> 6) & 63]}=` : '==';
  }
  return out;
}

/**
 * Logical bytes one row of id and vector adds to a namespace (and to its backlog): a u64 id plus the f32 vector.
 * Attributes add their own (lib/filter-cost/attribute-values.ts valueBytes).
 */
export function rowBytes(dims: number): number {
  return 8 + 4 * dims;
}
