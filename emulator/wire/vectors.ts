// Vectors on the wire -> one contiguous Float32Array per column. Accepted forms (docs/turbopuffer-api.md §2.3 and the
// SDK's Columns type): per row a number array or a base64 string of little-endian f32; for columns also one flat
// number array or one base64 string holding every row.
import { badRequest } from '../api-error';
import { RawString } from './json-body';
import { describeJson } from './json-text';
import { MAX_DIMS } from './schema';

export interface VectorBatch {
  dims: number;
  /** rows × dims floats, row-major (filled by decodeVectors). */
  data: Float32Array;
  /** 1 for rows whose value was null (their floats are zeros), or null when every row has a vector. */
  missing: Uint8Array | null;
  /** Rows in the batch. */
  rows: number;
  /**
   * Decodes rows [from, to) into `data`; null once everything is decoded. Decoding is deferred so a large write
   * can be decoded in slices between other requests (decodeVectors) instead of in one long block.
   */
  decode: ((from: number, to: number) => void) | null;
}

/** Rows decoded per step (a short slice of work); between steps the caller's turn decides whether to yield. */
export const DECODE_SLICE_ROWS = 128;

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Decodes every pending batch, calling `turn` between slices (other requests' turn). Throws the first 400. */
export async function decodeVectors(
  batches: Iterable<VectorBatch>,
  sliceRows = DECODE_SLICE_ROWS,
  turn: () => Promise<void> = nextTick,
): Promise<void> {
  for (const batch of batches) {
    const decode = batch.decode;
    if (!decode) continue;
    for (let from = 0; from < batch.rows; from += sliceRows) {
      decode(from, Math.min(batch.rows, from + sliceRows));
      if (from + sliceRows < batch.rows) await turn();
    }
    batch.decode = null;
  }
}

/** Hands out Float32Arrays (pooled for big batches; see BufferPool). */
export type FloatAllocator = (floats: number) => Float32Array;

export const plainAllocator: FloatAllocator = (floats) => new Float32Array(floats);

function base64Bytes(text: string | RawString): number {
  const n = typeof text === 'string' ? text.length : text.byteLength;
  const at = (i: number) => (typeof text === 'string' ? text.charCodeAt(i) : text.body[text.start + i]);
  let pad = 0;
  while (pad < 2 && n - 1 - pad >= 0 && at(n - 1 - pad) === 0x3d) pad++;
  return Math.floor(((n - pad) * 3) / 4);
}

/** Dimensions of one vector value, or null for null. Throws a 400 naming `field` for anything else. */
export function vectorDims(value: unknown, field: string): number | null {
  if (value === null || value === undefined) return null;
  let dims: number;
  if (Array.isArray(value)) dims = value.length;
  else if (typeof value === 'string' || value instanceof RawString) {
    const bytes = base64Bytes(value);
    if (bytes % 4 !== 0)
      throw badRequest(`${field}: base64 vector is ${bytes} bytes, not a whole number of f32`);
    dims = bytes / 4;
  } else throw badRequest(`${field}: expected a vector (number array or base64 string of little-endian f32)`);
  if (dims < 1 || dims > MAX_DIMS)
    throw badRequest(`${field}: vectors need 1 to ${MAX_DIMS} dimensions, got ${dims}`);
  return dims;
}

/** Writes one vector value into data[offset .. offset+dims). Throws a 400 naming `field`. */
export function writeVector(
  value: unknown,
  dims: number,
  data: Float32Array,
  offset: number,
  field: string,
): void {
  if (Array.isArray(value)) {
    if (value.length !== dims) throw dimsMismatch(field, dims, value.length);
    for (let i = 0; i < dims; i++) {
      const x = value[i];
      if (typeof x === 'number') data[offset + i] = x;
      // A huge integer literal in a body that also carries big ids: its float value is all a vector keeps.
      else if (typeof x === 'bigint') data[offset + i] = Number(x);
      else if (Array.isArray(x))
        throw badRequest(
          `${field}[${i}]: expected a number, got ${describeJson(x)}; multi-vector documents ([][N]f32) are not modelled by the emulator`,
        );
      else throw badRequest(`${field}[${i}]: expected a number, got ${describeJson(x)}`);
    }
    // 1e309 parses as Infinity and f32 overflows past 3.4e38: such a row would rank against nothing.
    const bad = firstNonFinite(data, offset, dims);
    if (bad >= 0)
      throw badRequest(
        `${field}[${bad}]: ${describeJson(value[bad])} is not a finite 32-bit float (|x| <= 3.4e38); vectors must be finite`,
      );
    return;
  }
  if (typeof value === 'string' || value instanceof RawString) {
    const text = typeof value === 'string' ? value : value.ascii();
    const target = Buffer.from(data.buffer, data.byteOffset + offset * 4, dims * 4);
    const written = target.write(text, 'base64');
    if (written !== dims * 4) throw dimsMismatch(field, dims, Math.floor(written / 4));
    const bad = firstNonFinite(data, offset, dims);
    if (bad >= 0)
      throw badRequest(
        `${field}: float ${bad} of the base64 vector is ${data[offset + bad]} (NaN or infinite bits); vectors must be finite`,
      );
    return;
  }
  throw badRequest(`${field}: expected a vector (number array or base64 string of little-endian f32)`);
}

/** Largest finite f32. */
const F32_MAX = 3.4028234663852886e38;

/** Index of the first NaN or infinite float in data[offset, offset + count), or -1. */
function firstNonFinite(data: Float32Array, offset: number, count: number): number {
  for (let i = 0; i < count; i++) {
    const v = data[offset + i];
    if (!(v <= F32_MAX && v >= -F32_MAX)) return i;
  }
  return -1;
}

function dimsMismatch(field: string, expected: number, got: number): Error {
  return badRequest(`${field}: expected ${expected} dimensions, got ${got}`);
}

/**
 * One vector per row (rows form, or a columns array of per-row vectors). `expectedDims` comes from the schema when
 * known; otherwise the first non-null vector sets it.
 */
export function readVectorList(
  values: readonly unknown[],
  field: (row: number) => string,
  expectedDims: number | null,
  alloc: FloatAllocator,
): VectorBatch {
  let dims = expectedDims;
  if (dims === null) {
    for (let i = 0; i < values.length && dims === null; i++) dims = vectorDims(values[i], field(i));
    if (dims === null) throw badRequest(`${field(0)}: every vector is null; cannot tell the dimensions`);
  }
  const width = dims;
  const data = alloc(values.length * dims);
  let missing: Uint8Array | null = null;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) {
      missing ??= new Uint8Array(values.length);
      missing[i] = 1;
    } else {
      const got = vectorDims(value, field(i)) ?? 0;
      if (got !== dims) throw dimsMismatch(field(i), dims, got);
    }
  }
  const decode = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const value = values[i];
      if (value === null || value === undefined) data.fill(0, i * width, (i + 1) * width);
      else writeVector(value, width, data, i * width, field(i));
    }
  };
  return { dims, data, missing, rows: values.length, decode };
}

/** A columns-form vector column: per-row values, one flat number array, or one base64 string for all rows. */
export function readVectorColumn(
  raw: unknown,
  rows: number,
  field: string,
  expectedDims: number | null,
  alloc: FloatAllocator,
): VectorBatch {
  if (Array.isArray(raw) && (raw.length === 0 || typeof raw[0] !== 'number')) {
    if (raw.length !== rows) throw badRequest(`${field}: has ${raw.length} values but id has ${rows}`);
    return readVectorList(raw, (i) => `${field}[${i}]`, expectedDims, alloc);
  }
  // One flat array or one string holding all rows back to back.
  if (rows === 0) return { dims: expectedDims ?? 0, data: alloc(0), missing: null, rows: 0, decode: null };
  const total = Array.isArray(raw)
    ? raw.length
    : typeof raw === 'string' || raw instanceof RawString
      ? base64Bytes(raw) / 4
      : Number.NaN;
  if (Number.isNaN(total)) throw badRequest(`${field}: expected an array of vectors or a base64 string`);
  const dims = total / rows;
  if (!Number.isInteger(dims) || dims < 1 || (expectedDims !== null && dims !== expectedDims))
    throw badRequest(
      `${field}: ${total} floats do not split into ${rows} vectors${expectedDims ? ` of ${expectedDims} dimensions` : ''}`,
    );
  const data = alloc(rows * dims);
  writeVector(raw, rows * dims, data, 0, field);
  return { dims, data, missing: null, rows, decode: null };
}
