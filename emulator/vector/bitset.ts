// Row bitsets (bit r of word r >>> 5), the engine's RowBitset: the database layer builds them (dead rows, filter
// candidates, rows without a vector) and the engine reads them while it scans. Bits past the array read as clear,
// so a set made before rows were appended needs no resizing to be read. Pure.
import type { RowBitset } from './types';

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

function popcount32(v: number): number {
  let x = v - ((v >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Mask of the bits of word w that fall inside [from, to). */
function rangeMask(w: number, from: number, to: number): number {
  const lo = Math.max(from - w * 32, 0);
  const hi = Math.min(to - w * 32, 32);
  if (hi <= lo) return 0;
  const upper = hi === 32 ? 0xffffffff : (1 << hi) - 1;
  return (upper & ~((1 << lo) - 1)) >>> 0;
}

/** Rows in [from, to) whose bit is set in `set` and, when given, clear in `minus`. */
export function countRows(set: RowBitset, from: number, to: number, minus?: RowBitset): number {
  if (to <= from) return 0;
  let n = 0;
  const last = Math.min((to - 1) >>> 5, set.length - 1);
  for (let w = from >>> 5; w <= last; w++) {
    let v = set[w] & rangeMask(w, from, to);
    if (minus && w < minus.length) v &= ~minus[w];
    n += popcount32(v);
  }
  return n;
}

/** Calls fn for each row in [from, to), ascending, whose bit is set in `set` and clear in `minus`. */
export function forEachRow(
  set: RowBitset,
  from: number,
  to: number,
  minus: RowBitset | undefined,
  fn: (row: number) => void,
): void {
  if (to <= from) return;
  const last = Math.min((to - 1) >>> 5, set.length - 1);
  for (let w = from >>> 5; w <= last; w++) {
    let v = set[w] & rangeMask(w, from, to);
    if (minus && w < minus.length) v &= ~minus[w];
    while (v !== 0) {
      const bit = 31 - Math.clz32(v & -v);
      fn(w * 32 + bit);
      v &= v - 1;
    }
  }
}
