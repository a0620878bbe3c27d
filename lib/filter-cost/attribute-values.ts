// Seeded values of experiment 2's one attribute with an exact cardinality: row `id` (0 <= id < rows) gets value
// index p(id) mod C, where p is a seeded bijection of [0, rows), so every value index in [0, C) occurs exactly
// floor(rows / C) or floor(rows / C) + 1 times, and any rerun (or VU) derives the same column. Pure.
import { hash32 } from '../vectors';

export type AttributeType = 'int' | 'string';

/** Digits after the `v` of a string value: 7 keeps strings at 8 bytes, the size of an int (i64). */
const MIN_STRING_DIGITS = 7;

/** Largest row count: a * id stays below 2^52, so the affine map is exact in doubles. */
export const MAX_ROWS = 2 ** 26;

export interface AttributeColumn {
  type: AttributeType;
  /** Rows written: ids 0 .. rows - 1. */
  rows: number;
  /** Distinct values, 1 <= cardinality <= rows. */
  cardinality: number;
  /** p(id) = (multiplier * id + offset) mod rows; multiplier is coprime with rows, so p is a bijection. */
  multiplier: number;
  offset: number;
}

function gcd(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

/** The column for (seed, rows, cardinality); throws a RangeError naming the bound that does not hold. */
export function attributeColumn(
  type: AttributeType,
  rows: number,
  cardinality: number,
  seed: number,
): AttributeColumn {
  if (!Number.isInteger(rows) || rows < 1 || rows > MAX_ROWS)
    throw new RangeError(`rows must be a whole number in 1..${MAX_ROWS}, got ${rows}`);
  if (!Number.isInteger(cardinality) || cardinality < 1 || cardinality > rows)
    throw new RangeError(`cardinality must be a whole number in 1..rows (${rows}), got ${cardinality}`);
  let multiplier = rows === 1 ? 1 : 1 + (hash32(seed ^ 0x6a09e667) % (rows - 1));
  while (gcd(multiplier, rows) !== 1) multiplier = (multiplier % (rows - 1)) + 1;
  const offset = hash32(seed ^ 0xbb67ae85) % rows;
  return { type, rows, cardinality, multiplier, offset };
}

/** The value index of row `id` (0 <= id < rows), in [0, cardinality). */
export function valueIndex(c: AttributeColumn, id: number): number {
  return ((c.multiplier * id + c.offset) % c.rows) % c.cardinality;
}

/** Characters after the `v` of every string value of the column (and of its filter bounds, up to `cardinality`). */
function stringDigits(cardinality: number): number {
  return Math.max(MIN_STRING_DIGITS, String(cardinality).length);
}

/**
 * The wire value of value index `index` (0 <= index <= cardinality; `cardinality` itself is the exclusive upper
 * bound filters use). Strings are zero-padded so their lexicographic order is the numeric order: `v0000042`.
 */
export function wireValue(c: AttributeColumn, index: number): number | string {
  if (c.type === 'int') return index;
  return `v${String(index).padStart(stringDigits(c.cardinality), '0')}`;
}

/** Logical bytes of one value as turbopuffer counts them: 8 for an int, the UTF-8 length of a string. */
export function valueBytes(c: Pick<AttributeColumn, 'type' | 'cardinality'>): number {
  return c.type === 'int' ? 8 : 1 + stringDigits(c.cardinality);
}

/** Rows holding value index `index`. */
export function rowsWithValue(c: AttributeColumn, index: number): number {
  if (index < 0 || index >= c.cardinality) return 0;
  return Math.floor(c.rows / c.cardinality) + (index < c.rows % c.cardinality ? 1 : 0);
}

/** Rows whose value index is below `bound` (0 <= bound <= cardinality): the rows `Lt wireValue(bound)` matches. */
export function rowsBelow(c: AttributeColumn, bound: number): number {
  const t = Math.max(0, Math.min(bound, c.cardinality));
  return t * Math.floor(c.rows / c.cardinality) + Math.min(t, c.rows % c.cardinality);
}

/** The column's values for ids firstId .. firstId + count - 1, as an upsert_columns array. */
export function columnValues(c: AttributeColumn, firstId: number, count: number): (number | string)[] {
  const out = new Array<number | string>(count);
  for (let i = 0; i < count; i++) out[i] = wireValue(c, valueIndex(c, firstId + i));
  return out;
}
