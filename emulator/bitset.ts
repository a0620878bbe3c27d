// Dense row bitsets (the vector engine's RowBitset: bit r lives in word r >>> 5) and the few operations the database
// layer needs on them. Pure.
import type { RowBitset } from './vector/types';

export function bitsetWords(rows: number): number {
  return (rows + 31) >>> 5;
}

export function newBitset(rows: number): RowBitset {
  return new Uint32Array(bitsetWords(rows));
}

export function hasBit(set: RowBitset, row: number): boolean {
  const word = row >>> 5;
  return word < set.length && (set[word] & (1 << (row & 31))) !== 0;
}

export function setBit(set: RowBitset, row: number): void {
  set[row >>> 5] |= 1 << (row & 31);
}

export function clearBit(set: RowBitset, row: number): void {
  set[row >>> 5] &= ~(1 << (row & 31));
}

/** A copy with room for at least `rows` bits (new words zero). */
export function resizedCopy(set: RowBitset, rows: number): RowBitset {
  const out = new Uint32Array(Math.max(bitsetWords(rows), set.length));
  out.set(set.subarray(0, Math.min(set.length, out.length)));
  return out;
}

/** a &= b over the first `rows` bits. */
export function andInPlace(a: RowBitset, b: RowBitset): RowBitset {
  const n = a.length;
  for (let i = 0; i < n; i++) a[i] &= i < b.length ? b[i] : 0;
  return a;
}

/** a |= b. */
export function orInPlace(a: RowBitset, b: RowBitset): RowBitset {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) a[i] |= b[i];
  return a;
}

/** Complement within [0, rows): bits at rows and above stay clear. */
export function notInPlace(a: RowBitset, rows: number): RowBitset {
  const full = rows >>> 5;
  for (let i = 0; i < full; i++) a[i] = ~a[i];
  if (rows & 31) a[full] = ~a[full] & ((1 << (rows & 31)) - 1);
  for (let i = bitsetWords(rows); i < a.length; i++) a[i] = 0;
  return a;
}

/** Sets every bit in [from, to). */
export function setRange(set: RowBitset, from: number, to: number): void {
  for (let r = from; r < to && r & 31; r++) setBit(set, r);
  let r = from + ((32 - (from & 31)) & 31);
  for (; r + 32 <= to; r += 32) set[r >>> 5] = 0xffffffff;
  for (; r < to; r++) setBit(set, r);
}

/** Number of set bits. */
export function countBits(set: RowBitset): number {
  let total = 0;
  for (let i = 0; i < set.length; i++) {
    let v = set[i];
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    total += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return total;
}
