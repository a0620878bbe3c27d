// Row bitsets (bit r of word r >>> 5): membership and counting over row ranges.
import type { RowBitset } from './types';

export function hasRow(set: RowBitset, row: number): boolean {
  return ((set[row >>> 5] >>> (row & 31)) & 1) === 1;
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

/** Rows in [from, to) whose bit is set in `set` and, when given, clear in `minus`. Bits past the array are clear. */
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
