// Row versions and tombstones: a reader at log position H sees rows written by H and not killed by H.
import { describe, expect, it } from 'vitest';
import { hasBit } from '../vector/bitset';
import { DocStore } from './doc-store';

function deadRows(store: DocStore, pos: number): number[] {
  const dead = store.deadAsOf(pos);
  return Array.from({ length: store.rowCount }, (_, r) => r).filter((r) => hasBit(dead, r));
}

describe('DocStore', () => {
  it('an upsert of an existing id kills the old row at the new row position; deletes kill at theirs', () => {
    const store = new DocStore();
    store.appendRow('a', 10, 10, new Map([['n', 1]])); // row 0
    store.appendRow('b', 20, 10, new Map()); // row 1
    store.appendRow('a', 30, 10, new Map([['n', 2]])); // row 2 replaces row 0
    expect(store.deleteId('b', 35)).toBe(true);
    store.advanceHead(35);
    expect(store.deleteId('zzz', 36)).toBe(false);
    expect(store.liveCount).toBe(1);
    expect(store.liveRows.get('a')).toBe(2);
    expect(store.value('n', 2)).toBe(2);
    expect(store.value('n', 1)).toBeNull();
    expect(deadRows(store, Number.POSITIVE_INFINITY)).toEqual([0, 1]);
    // A reader at 25 has not seen the replacement of a nor the delete of b.
    expect(deadRows(store, 25)).toEqual([]);
    expect(deadRows(store, 30)).toEqual([0]);
    expect(store.rowsUpTo(25)).toBe(2);
    expect(store.rowsUpTo(30)).toBe(3);
  });

  it('a dead set handed to a reader does not change under later writes (copy on write)', () => {
    const store = new DocStore();
    store.appendRow(1, 8, 8, new Map());
    store.appendRow(2, 16, 8, new Map());
    const snapshot = store.deadAsOf(Number.POSITIVE_INFINITY);
    store.deleteId(1, 24);
    expect(hasBit(snapshot, 0)).toBe(false);
    expect(hasBit(store.deadAsOf(Number.POSITIVE_INFINITY), 0)).toBe(true);
  });
});
