// Documents as append-only row versions. Every upsert or patch appends a row; the row it replaces (and every
// deleted row) is killed at a log position. Rows are what the vector engine numbers, so vector rows, attribute
// values and these arrays all share one row number.
//
//   row:        0    1    2    3    4    5          rows [0, indexedRows) are covered by indexes,
//   id:         a    b    c    a    d    b          the rest is the unindexed tail
//   endPos:    10   20   30   40   50   60          cumulative logical bytes of the log after the row's write
//   deadAt:    40  inf  inf  inf  inf  inf          position of the write that replaced or deleted the row
//   kills (in log order): (0 @ 40), (1 @ 70: delete of b in a write without rows ... )
//
// A reader that sees the log up to position H sees rows with endPos <= H that were not killed at or before H.
// Kills happen in log order, so "killed after H" is a suffix of the kill list: an eventual reader takes the dead
// bitset and revives that suffix.

import { bitsetWords, clearBit, resizedCopy, setBit } from '../vector/bitset';
import type { RowBitset } from '../vector/types';
import type { DocId } from '../wire/ids';
import type { StoredValue } from '../wire/values';
import { ChunkedFloat64, ChunkedList } from './chunked';
import { IdMap } from './id-map';

export class DocStore {
  /** Rows appended so far (dead or alive). */
  rowCount = 0;
  /** Cumulative logical bytes of everything logged (rows, deletes). */
  headPos = 0;
  private readonly ids = new ChunkedList<DocId>();
  /** id -> its live row. */
  readonly liveRows = new IdMap();
  /** Attribute values by row; a missing entry is null. */
  readonly attributes = new Map<string, StoredValue[]>();
  private readonly endPos = new ChunkedFloat64();
  private readonly deadAtPos = new ChunkedFloat64(Number.POSITIVE_INFINITY);
  /** Logical bytes of each row's whole document (for approx_logical_bytes). */
  private readonly docBytes = new ChunkedFloat64();
  private readonly killRows = new ChunkedFloat64();
  private readonly killPos = new ChunkedFloat64();
  private kills = 0;
  /** Kills before this index happened at or before every position a reader can still ask for. */
  private killsTrimmed = 0;
  private dead: RowBitset = new Uint32Array(0);
  /** A reader holds `dead`: copy before the next change (copy on write). */
  private deadShared = false;
  /** Bumped on every change readers may cache against. */
  version = 0;

  /** Appends a row version of `id` ending at log position `endPos`, killing the id's previous row there. */
  appendRow(id: DocId, endPos: number, bytes: number, values: ReadonlyMap<string, StoredValue>): number {
    const row = this.rowCount++;
    this.endPos.set(row, endPos);
    this.docBytes.set(row, bytes);
    this.deadAtPos.set(row, Number.POSITIVE_INFINITY);
    this.ids.push(id);
    // The vector engine expects dead sets to cover every row: grow ahead (readers keep the array they were given).
    if (this.dead.length < bitsetWords(this.rowCount)) {
      this.dead = resizedCopy(this.dead, Math.ceil(this.rowCount * 1.5) + 1024);
      this.deadShared = false;
    }
    for (const [name, value] of values) {
      let column = this.attributes.get(name);
      if (!column) {
        column = [];
        this.attributes.set(name, column);
      }
      // Keep arrays dense (no holes) so V8 keeps them fast: pad skipped rows with null.
      while (column.length < row) column.push(null);
      column[row] = value;
    }
    const previous = this.liveRows.get(id);
    if (previous !== undefined) this.kill(previous, endPos);
    this.liveRows.set(id, row);
    this.headPos = Math.max(this.headPos, endPos);
    this.version++;
    return row;
  }

  /** Deletes a document's live row at log position `pos`. Returns false when the id has no live row. */
  deleteId(id: DocId, pos: number): boolean {
    const row = this.liveRows.get(id);
    if (row === undefined) return false;
    this.liveRows.delete(id);
    this.kill(row, pos);
    this.version++;
    return true;
  }

  /** Advances the log head past bytes that append no row (deletes). */
  advanceHead(pos: number): void {
    this.headPos = Math.max(this.headPos, pos);
  }

  private kill(row: number, pos: number): void {
    this.deadAtPos.set(row, pos);
    if (this.deadShared) {
      this.dead = this.dead.slice();
      this.deadShared = false;
    }
    setBit(this.dead, row);
    const k = this.kills++;
    this.killRows.set(k, row);
    this.killPos.set(k, pos);
  }

  /** A RowSource over this store (filters read it). */
  readonly source = {
    id: (row: number): DocId => this.ids.get(row),
    value: (attr: string, row: number): StoredValue => this.value(attr, row),
    column: (attr: string): readonly StoredValue[] | undefined => this.attributes.get(attr),
  };

  value(name: string, row: number): StoredValue {
    const column = this.attributes.get(name);
    const value = column === undefined ? undefined : column[row];
    return value === undefined ? null : value;
  }

  idOf(row: number): DocId {
    return this.ids.get(row);
  }

  endPosOf(row: number): number {
    return this.endPos.get(row);
  }

  deadAt(row: number): number {
    return this.deadAtPos.get(row);
  }

  isLive(row: number): boolean {
    return this.deadAtPos.get(row) === Number.POSITIVE_INFINITY;
  }

  docBytesOf(row: number): number {
    return this.docBytes.get(row);
  }

  /** Rows whose write ends at or before `pos` (binary search; endPos grows with the row number). */
  rowsUpTo(pos: number): number {
    let lo = 0;
    let hi = this.rowCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.endPos.get(mid) <= pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Rows dead for a reader that sees the log up to `pos` (Infinity: everything). Shared and read-only: callers must
   * not modify it. Bits at or beyond rowCount may be unset.
   */
  deadAsOf(pos: number): RowBitset {
    this.deadShared = true;
    if (pos >= this.headPos) return this.dead;
    // Kills after pos are a suffix of the kill list (kills are logged in order).
    let lo = this.killsTrimmed;
    let hi = this.kills;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.killPos.get(mid) <= pos) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.kills) return this.dead;
    const copy = this.dead.slice();
    for (let k = lo; k < this.kills; k++) clearBit(copy, this.killRows.get(k));
    return copy;
  }

  /** Readers never ask about positions before `pos` again (the index cursor passed it): forget older kills. */
  trimKillsBefore(pos: number): void {
    while (this.killsTrimmed < this.kills && this.killPos.get(this.killsTrimmed) <= pos) this.killsTrimmed++;
  }

  /** Live documents right now. */
  get liveCount(): number {
    return this.liveRows.size;
  }
}
