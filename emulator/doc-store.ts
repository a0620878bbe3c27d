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
import { bitsetWords, clearBit, resizedCopy, setBit } from './bitset';
import type { RowBitset } from './vector/types';
import type { DocId } from './wire/ids';
import type { StoredValue } from './wire/values';

class GrowableArray<T extends Float64Array | Int32Array> {
  constructor(
    public data: T,
    private readonly make: (n: number) => T,
    private readonly fill?: number,
  ) {}
  ensure(length: number): void {
    if (length <= this.data.length) return;
    const next = this.make(Math.max(length, Math.ceil(this.data.length * 1.5), 1024));
    next.set(this.data);
    if (this.fill !== undefined) next.fill(this.fill, this.data.length);
    this.data = next;
  }
}

export class DocStore {
  /** Rows appended so far (dead or alive). */
  rowCount = 0;
  /** Cumulative logical bytes of everything logged (rows, deletes). */
  headPos = 0;
  readonly rowIds: DocId[] = [];
  /** id -> its live row. */
  readonly liveRows = new Map<DocId, number>();
  /** Attribute values by row; a missing entry is null. */
  readonly attributes = new Map<string, StoredValue[]>();
  private readonly endPos = new GrowableArray(new Float64Array(0), (n) => new Float64Array(n));
  private readonly deadAtPos = new GrowableArray(
    new Float64Array(0),
    (n) => new Float64Array(n),
    Number.POSITIVE_INFINITY,
  );
  /** Logical bytes of each row's whole document (for approx_logical_bytes). */
  private readonly docBytes = new GrowableArray(new Float64Array(0), (n) => new Float64Array(n));
  private readonly killRows = new GrowableArray(new Int32Array(0), (n) => new Int32Array(n));
  private readonly killPos = new GrowableArray(new Float64Array(0), (n) => new Float64Array(n));
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
    this.endPos.ensure(this.rowCount);
    this.deadAtPos.ensure(this.rowCount);
    this.docBytes.ensure(this.rowCount);
    this.endPos.data[row] = endPos;
    this.docBytes.data[row] = bytes;
    this.rowIds.push(id);
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
    this.deadAtPos.data[row] = pos;
    if (this.deadShared || this.dead.length < bitsetWords(this.rowCount)) {
      this.dead = resizedCopy(this.dead, Math.max(this.rowCount + 1024, Math.ceil(this.rowCount * 1.25)));
      this.deadShared = false;
    }
    setBit(this.dead, row);
    const k = this.kills++;
    this.killRows.ensure(this.kills);
    this.killPos.ensure(this.kills);
    this.killRows.data[k] = row;
    this.killPos.data[k] = pos;
  }

  /** A RowSource over this store (filters read it). */
  readonly source = {
    id: (row: number): DocId => this.rowIds[row],
    value: (attr: string, row: number): StoredValue => this.value(attr, row),
    column: (attr: string): readonly StoredValue[] | undefined => this.attributes.get(attr),
  };

  value(name: string, row: number): StoredValue {
    const column = this.attributes.get(name);
    const value = column === undefined ? undefined : column[row];
    return value === undefined ? null : value;
  }

  endPosOf(row: number): number {
    return this.endPos.data[row];
  }

  deadAt(row: number): number {
    return this.deadAtPos.data[row];
  }

  isLive(row: number): boolean {
    return this.deadAtPos.data[row] === Number.POSITIVE_INFINITY;
  }

  docBytesOf(row: number): number {
    return this.docBytes.data[row];
  }

  /** Rows whose write ends at or before `pos` (binary search; endPos grows with the row number). */
  rowsUpTo(pos: number): number {
    let lo = 0;
    let hi = this.rowCount;
    const ends = this.endPos.data;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ends[mid] <= pos) lo = mid + 1;
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
    const positions = this.killPos.data;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (positions[mid] <= pos) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.kills) return this.dead;
    const copy = this.dead.slice();
    for (let k = lo; k < this.kills; k++) clearBit(copy, this.killRows.data[k]);
    return copy;
  }

  /** Readers never ask about positions before `pos` again (the index cursor passed it): forget older kills. */
  trimKillsBefore(pos: number): void {
    while (this.killsTrimmed < this.kills && this.killPos.data[this.killsTrimmed] <= pos) this.killsTrimmed++;
  }

  /** Live documents right now. */
  get liveCount(): number {
    return this.liveRows.size;
  }
}
