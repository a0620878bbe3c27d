// Document ids as turbopuffer documents them: unsigned 64-bit integers, UUIDs (declared) or strings up to 64 bytes;
// one id type per namespace. Integer ids keep all 64 bits: up to 2^53 - 1 they are JS numbers (the common, fast
// case), above it BigInts, so each value has exactly one form and Map keys, === and sorting stay exact.
import { badRequest } from '../api-error';
import { describeJson } from './json-text';
import type { IdType } from './schema';

/** An id as the emulator keys it: a number or BigInt for uint/int ids, a (lower-case for uuid) string otherwise. */
export type DocId = number | bigint | string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_STRING_ID_BYTES = 64;
const U64_MAX = 2n ** 64n - 1n;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** The id type a first id implies when the namespace has none yet. */
export function inferIdType(raw: unknown): IdType {
  return typeof raw === 'number' || typeof raw === 'bigint' ? 'uint' : 'string';
}

/** The one form of an integer id: a number when it is a safe integer, a BigInt otherwise. */
function canonicalInteger(value: bigint): number | bigint {
  return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
}

/** A JSON number the body parser left rounded (|v| >= 2^53): the body must be read again with exact integers. */
export function isRoundedInteger(raw: unknown): boolean {
  return typeof raw === 'number' && Number.isFinite(raw) && Math.abs(raw) > Number.MAX_SAFE_INTEGER;
}

/** True when a number anywhere in a (materialized, depth-bounded) value was rounded: e.g. an id in a filter. */
export function holdsRoundedInteger(value: unknown): boolean {
  if (isRoundedInteger(value)) return true;
  if (Array.isArray(value)) return value.some(holdsRoundedInteger);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsRoundedInteger);
  return false;
}

/** Checks one id against the namespace's id type. `field` names it in the 400, e.g. "upsert_rows[3].id". */
export function parseId(raw: unknown, type: IdType, field: string): DocId {
  switch (type) {
    case 'uint':
    case 'int':
      if (typeof raw === 'number' && Number.isSafeInteger(raw) && (type === 'int' || raw >= 0))
        return raw + 0;
      return integerId(raw, type, field);
    case 'uuid':
      if (typeof raw === 'string' && UUID.test(raw)) return raw.toLowerCase();
      throw badRequest(`${field}: expected a UUID id, got ${describeJson(raw)}`);
    case 'string':
      if (typeof raw !== 'string')
        throw badRequest(`${field}: expected a string id, got ${describeJson(raw)}`);
      if (raw.length === 0) throw badRequest(`${field}: ids must not be empty`);
      if (Buffer.byteLength(raw) > MAX_STRING_ID_BYTES)
        throw badRequest(`${field}: string ids are limited to ${MAX_STRING_ID_BYTES} bytes`);
      return raw;
  }
}

/** The slow path of integer ids: BigInts, and every number that is not a safe integer in range. */
function integerId(raw: unknown, type: 'uint' | 'int', field: string): DocId {
  const range = type === 'uint' ? `0 to ${U64_MAX}` : `${I64_MIN} to ${I64_MAX}`;
  const expected = `${field}: expected an integer id from ${range}`;
  if (typeof raw === 'bigint') {
    if (type === 'uint' && raw < 0n) throw badRequest(`${expected}; ${raw} is negative`);
    if (raw > (type === 'uint' ? U64_MAX : I64_MAX))
      throw badRequest(`${expected}; ${raw} is too large for ${type === 'uint' ? 'u64' : 'i64'}`);
    if (raw < I64_MIN) throw badRequest(`${expected}; ${raw} is too small for i64`);
    return canonicalInteger(raw);
  }
  if (typeof raw !== 'number') throw badRequest(`${expected}, got ${describeJson(raw)}`);
  if (!Number.isFinite(raw))
    throw badRequest(
      `${expected}; the number is beyond the range of a 64-bit float (it reads as ${describeJson(raw)})`,
    );
  if (!Number.isInteger(raw)) throw badRequest(`${expected}; ${raw} has a fractional part`);
  if (type === 'uint' && raw < 0) throw badRequest(`${expected}; ${raw} is negative`);
  // Integer literals of 2^53 and more arrive as BigInts; a number this large was written with an exponent or a
  // fraction (1e19, 9007199254740993.0), whose digits a double cannot hold.
  throw badRequest(`${expected}; write ids of 2^53 and more as plain digits (got ${raw}, an inexact float)`);
}

/** Logical bytes of an id: 8 for integers, 16 for UUIDs, UTF-8 length for strings. */
export function idBytes(id: DocId, type: IdType): number {
  if (type === 'uuid') return 16;
  return typeof id === 'string' ? Buffer.byteLength(id) : 8;
}

/** Orders ids: integers by value (numbers and BigInts together), strings by UTF-16 code units. */
export function compareIds(a: DocId, b: DocId): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a !== 'string' && typeof b !== 'string') return a < b ? -1 : a > b ? 1 : 0;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
