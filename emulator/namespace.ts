// One namespace: schema, documents, vector columns, attribute indexes and the write-ahead log, plus how far
// indexing has got. Writes are serialized: validate, log (durable), apply, acknowledge. Reads take a view of the
// state at a log position (strong: the head; eventual: the index cursor plus a bounded prefix of the tail).
//
//   log position:  0 ........ cursorPos ............ eventual horizon ........ headPos
//                  |  indexed  |   unindexed tail: strong scans all of it           |
//                              |  eventual scans up to the tail limit  |
import { notFound } from './api-error';
import { checkWriteBackpressure } from './backpressure';
import { hasBit, newBitset, orInPlace, resizedCopy, setBit, setRange } from './bitset';
import type { EmulatorConfig } from './config';
import { DocStore } from './doc-store';
import { AttributeIndex } from './index/attribute-index';
import { NamespaceSchema } from './namespace-schema';
import { type PreparedDocs, type PreparedWrite, prepareWrite } from './prepare-write';
import { QueryGate } from './query-gate';
import type { DistanceMetric, RowBitset, VectorColumn } from './vector/types';
import type { WalRecord, WriteAheadLog } from './wal/wal';
import { type DocId, idBytes } from './wire/ids';
import { parseJsonBody } from './wire/json-body';
import { type StoredValue, valueBytes } from './wire/values';
import { plainAllocator } from './wire/vectors';
import { parseWriteRequest, type WriteRequest } from './wire/write-request';

export type VectorColumnFactory = (spec: { dims: number; metric: DistanceMetric }) => VectorColumn;

export type NamespaceConfig = Pick<
  EmulatorConfig,
  'backlogLimitBytes' | 'eventualTailLimitBytes' | 'indexBytesPerSecond' | 'querySlots' | 'queryWaitMs'
>;

/** A vector column and the rows that have no vector in it (written before it existed, or null). */
export interface VectorSlot {
  column: VectorColumn;
  missing: RowBitset;
  missingCount: number;
}

/** One logged write: where it sits in the log and what it changed, applied to approx_* once indexed. */
interface LogEntry {
  seq: number;
  endPos: number;
  rowCountDelta: number;
  logicalBytesDelta: number;
}

export interface WriteResult {
  upserted: DocId[];
  patched: DocId[];
  deleted: DocId[];
  rowsRemaining: boolean;
  /** Logical bytes the write carried (billing). */
  bytes: number;
}

/** What a query reads: rows [0, rows) at log position `pos`, of which [0, indexedRows) are indexed. */
export interface ReadView {
  consistency: 'strong' | 'eventual';
  pos: number;
  rows: number;
  indexedRows: number;
  dead: RowBitset;
}

export class Namespace {
  readonly schema = new NamespaceSchema();
  readonly store = new DocStore();
  readonly vectors = new Map<string, VectorSlot>();
  readonly attributeIndex = new AttributeIndex();
  readonly gate: QueryGate;
  createdAt = Date.now();
  updatedAt = this.createdAt;
  lastWriteAt = this.createdAt;
  /** Log position up to which everything is indexed. */
  cursorPos = 0;
  indexedRows = 0;
  approxRowCount = 0;
  approxLogicalBytes = 0;
  deleted = false;
  /** Called after each applied write (the indexer listens). */
  onWrite: () => void = () => {};
  private liveBytes = 0;
  private readonly entries: LogEntry[] = [];
  private entryHead = 0;
  private lock: Promise<unknown> = Promise.resolve();

  constructor(
    readonly name: string,
    readonly wal: WriteAheadLog,
    private readonly createColumn: VectorColumnFactory,
    readonly config: NamespaceConfig,
  ) {
    this.gate = new QueryGate(config.querySlots, config.queryWaitMs);
  }

  get headPos(): number {
    return this.store.headPos;
  }

  get unindexedBytes(): number {
    return this.store.headPos - this.cursorPos;
  }

  /** Runs `work` alone among this namespace's writes. */
  exclusive<T>(work: () => Promise<T> | T): Promise<T> {
    const run = this.lock.then(work, work);
    this.lock = run.catch(() => undefined);
    return run;
  }

  /** Validates, logs and applies one write; resolves once it is durable and visible. */
  write(req: WriteRequest, body: Buffer): Promise<WriteResult> {
    return this.exclusive(async () => {
      if (this.deleted) throw notFound(this.name);
      checkWriteBackpressure(req, {
        unindexedBytes: this.unindexedBytes,
        limitBytes: this.config.backlogLimitBytes,
        indexBytesPerSecond: this.config.indexBytesPerSecond,
      });
      const prepared = prepareWrite(req, this);
      const timeMs = Date.now();
      const seq = await this.wal.append({ kind: 'write', timeMs, body });
      if (this.deleted) throw notFound(this.name);
      return this.apply(prepared, seq, timeMs);
    });
  }

  /** Re-applies a logged record during recovery (no logging, no backpressure). */
  replay(seq: number, record: WalRecord): void {
    const req = parseWriteRequest(parseJsonBody(record.body), {
      vectorColumns: new Set(this.schema.vectorColumns()),
      vectorDims: (name) => this.vectorDims(name),
      alloc: plainAllocator,
    });
    if (seq === 1) this.createdAt = record.timeMs;
    this.apply(prepareWrite(req, this), seq, record.timeMs);
  }

  vectorDims(name: string): number | null {
    const spec = this.schema.attribute(name);
    return spec?.type.kind === 'vector' ? spec.type.dims : null;
  }

  private apply(prepared: PreparedWrite, seq: number, timeMs: number): WriteResult {
    const { schema, store } = this;
    for (const [name, spec] of prepared.schemaChanges) {
      const before = schema.attribute(name);
      schema.attributes.set(name, spec);
      if (before?.filterable && !spec.filterable) this.attributeIndex.drop(name);
    }
    if (prepared.idType) schema.idType = prepared.idType;
    if (prepared.distanceMetric) schema.distanceMetric = prepared.distanceMetric;
    // New vector columns start before this write's rows (earlier rows get zero vectors marked missing).
    for (const docs of prepared.upserts) for (const name of docs.vectors.keys()) this.slot(name);
    const countBefore = store.liveCount;
    const bytesBefore = this.liveBytes;
    const idType = schema.idType ?? 'uint';
    let pos = store.headPos;
    let bytes = 0;
    const result: WriteResult = {
      upserted: [],
      patched: [],
      deleted: [],
      rowsRemaining: prepared.rowsRemaining,
      bytes: 0,
    };

    const remove = (id: DocId) => {
      const b = idBytes(id, idType);
      pos += b;
      bytes += b;
      const row = store.liveRows.get(id);
      if (row === undefined) return;
      this.liveBytes -= store.docBytesOf(row);
      store.deleteId(id, pos);
      result.deleted.push(id);
    };
    for (const id of prepared.filterDeletes) remove(id);
    if (prepared.filterPatches) {
      const [p, b] = this.applyPatches(prepared.filterPatches, pos, result.patched);
      pos = p;
      bytes += b;
    }
    for (const docs of prepared.upserts) {
      const [p, b] = this.applyUpserts(docs, pos, result.upserted);
      pos = p;
      bytes += b;
    }
    for (const docs of prepared.patches) {
      const [p, b] = this.applyPatches(docs, pos, result.patched);
      pos = p;
      bytes += b;
    }
    for (const id of prepared.deletes) remove(id);
    store.advanceHead(pos);
    this.entries.push({
      seq,
      endPos: pos,
      rowCountDelta: store.liveCount - countBefore,
      logicalBytesDelta: this.liveBytes - bytesBefore,
    });
    this.updatedAt = timeMs;
    if (bytes > 0) this.lastWriteAt = timeMs;
    result.bytes = bytes;
    this.onWrite();
    return result;
  }

  /** The vector slot for a column, created (zero-filled for earlier rows) on first use. */
  private slot(name: string): VectorSlot {
    let slot = this.vectors.get(name);
    if (slot) return slot;
    const spec = this.schema.attribute(name);
    if (spec?.type.kind !== 'vector') throw new Error(`internal: ${name} is not a vector column`);
    const metric = spec.distanceMetric ?? this.schema.distanceMetric ?? 'cosine_distance';
    const column = this.createColumn({ dims: spec.type.dims, metric });
    const rows = this.store.rowCount;
    slot = { column, missing: newBitset(rows + 1024), missingCount: rows };
    if (rows > 0) {
      column.append(new Float32Array(rows * spec.type.dims));
      setRange(slot.missing, 0, rows);
    }
    this.vectors.set(name, slot);
    return slot;
  }

  private markMissing(slot: VectorSlot, row: number): void {
    if (slot.missing.length * 32 <= row)
      slot.missing = resizedCopy(slot.missing, Math.ceil((row + 1) * 1.5) + 1024);
    setBit(slot.missing, row);
    slot.missingCount++;
  }

  /** Appends vectors for `rows` (first row `firstRow`) to every vector column, zeros where a document has none. */
  private appendVectors(
    firstRow: number,
    applied: number[],
    batches: ReadonlyMap<string, { dims: number; data: Float32Array; missing: Uint8Array | null }>,
    all: boolean,
  ): void {
    for (const [name, slot] of this.vectors) {
      const dims = slot.column.dims;
      const batch = batches.get(name);
      let data: Float32Array;
      if (batch && all) data = batch.data.subarray(0, applied.length * dims);
      else {
        data = new Float32Array(applied.length * dims);
        if (batch)
          applied.forEach((i, k) => {
            data.set(batch.data.subarray(i * dims, (i + 1) * dims), k * dims);
          });
      }
      slot.column.append(data);
      applied.forEach((i, k) => {
        if (!batch || batch.missing?.[i]) this.markMissing(slot, firstRow + k);
      });
    }
  }

  private applyUpserts(docs: PreparedDocs, pos: number, out: DocId[]): [number, number] {
    const { store } = this;
    const firstRow = store.rowCount;
    const applied: number[] = [];
    let bytes = 0;
    const columns = [...docs.values];
    for (let i = 0; i < docs.ids.length; i++) {
      if (!docs.apply[i]) continue;
      const id = docs.ids[i];
      pos += docs.opBytes[i];
      bytes += docs.opBytes[i];
      const values = new Map<string, StoredValue>();
      for (const [name, column] of columns) {
        const v = column[i];
        if (v !== null && v !== undefined) values.set(name, v);
      }
      const previous = store.liveRows.get(id);
      if (previous !== undefined) this.liveBytes -= store.docBytesOf(previous);
      store.appendRow(id, pos, docs.opBytes[i], values);
      this.liveBytes += docs.opBytes[i];
      applied.push(i);
      out.push(id);
    }
    this.appendVectors(firstRow, applied, docs.vectors, applied.length === docs.ids.length);
    return [pos, bytes];
  }

  private applyPatches(docs: PreparedDocs, pos: number, out: DocId[]): [number, number] {
    const { store, schema } = this;
    const firstRow = store.rowCount;
    const oldRows: number[] = [];
    let bytes = 0;
    const idType = schema.idType ?? 'uint';
    for (let i = 0; i < docs.ids.length; i++) {
      if (!docs.apply[i]) continue;
      const id = docs.ids[i];
      const oldRow = store.liveRows.get(id);
      if (oldRow === undefined) continue;
      const values = new Map<string, StoredValue>();
      let docBytes = idBytes(id, idType);
      for (const name of store.attributes.keys()) {
        const patched = docs.values.get(name)?.[i];
        const v = patched === undefined ? store.value(name, oldRow) : patched;
        if (v === null) continue;
        values.set(name, v);
        const spec = schema.attribute(name);
        if (spec) docBytes += valueBytes(spec.type, v);
      }
      for (const [name, column] of docs.values) {
        const v = column[i];
        if (v === undefined || v === null || values.has(name)) continue;
        values.set(name, v);
        const spec = schema.attribute(name);
        if (spec) docBytes += valueBytes(spec.type, v);
      }
      for (const slot of this.vectors.values()) docBytes += slot.column.dims * 4;
      pos += docs.opBytes[i];
      bytes += docs.opBytes[i];
      this.liveBytes += docBytes - store.docBytesOf(oldRow);
      store.appendRow(id, pos, docBytes, values);
      oldRows.push(oldRow);
      out.push(id);
    }
    // A patch is a new row version: it carries the old version's vectors.
    for (const slot of this.vectors.values()) {
      const dims = slot.column.dims;
      const data = new Float32Array(oldRows.length * dims);
      oldRows.forEach((row, k) => {
        if (hasBit(slot.missing, row)) this.markMissing(slot, firstRow + k);
        else data.set(slot.column.get(row), k * dims);
      });
      slot.column.append(data);
    }
    return [pos, bytes];
  }

  /** The state a query reads. Eventual views stop at the last write that fits in the tail limit. */
  view(consistency: 'strong' | 'eventual'): ReadView {
    let pos = this.store.headPos;
    if (consistency === 'eventual') pos = this.eventualHorizon();
    const rows = pos >= this.store.headPos ? this.store.rowCount : this.store.rowsUpTo(pos);
    return {
      consistency,
      pos,
      rows,
      indexedRows: Math.min(this.indexedRows, rows),
      dead: this.store.deadAsOf(pos),
    };
  }

  private eventualHorizon(): number {
    const limit = this.cursorPos + this.config.eventualTailLimitBytes;
    if (limit >= this.store.headPos) return this.store.headPos;
    // The last whole write within the limit (writes are atomic), binary search over pending entries.
    let lo = this.entryHead;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid].endPos <= limit) lo = mid + 1;
      else hi = mid;
    }
    return lo > this.entryHead ? Math.max(this.cursorPos, this.entries[lo - 1].endPos) : this.cursorPos;
  }

  /** Rows a vector search must skip in `column` for a view: dead rows plus rows without a vector there. */
  deadFor(slot: VectorSlot, view: ReadView): RowBitset {
    if (slot.missingCount === 0) return view.dead;
    return orInPlace(resizedCopy(view.dead, view.rows), slot.missing);
  }

  /** Extends the indexes to log position `pos` (called by the indexer; never concurrently with itself). */
  async indexTo(pos: number): Promise<void> {
    const target = Math.min(pos, this.store.headPos);
    if (target <= this.cursorPos) return;
    const rows = this.store.rowsUpTo(target);
    await Promise.all([...this.vectors.values()].map((slot) => slot.column.indexTo(rows)));
    if (this.deleted) return;
    // Attribute postings in slices so a large catch-up does not hold the event loop.
    const filterable = this.schema.filterable();
    for (let at = this.attributeIndex.indexedRows; at < rows; ) {
      at = Math.min(rows, at + 50_000);
      this.attributeIndex.addRows(at, this.store, filterable);
      if (at < rows) await new Promise((resolve) => setImmediate(resolve));
    }
    this.attributeIndex.addRows(rows, this.store, filterable);
    this.indexedRows = Math.max(this.indexedRows, rows);
    this.cursorPos = target;
    let seq = 0;
    while (this.entryHead < this.entries.length && this.entries[this.entryHead].endPos <= target) {
      const entry = this.entries[this.entryHead++];
      this.approxRowCount += entry.rowCountDelta;
      this.approxLogicalBytes += entry.logicalBytesDelta;
      seq = entry.seq;
    }
    if (this.entryHead > 1024 && this.entryHead * 2 > this.entries.length) {
      this.entries.splice(0, this.entryHead);
      this.entryHead = 0;
    }
    this.store.trimKillsBefore(target);
    if (seq > 0) await this.wal.markIndexed(seq);
  }

  /** Log position where record `seq` ends, or null when it is not pending (for recovery of the index cursor). */
  endPosOfSeq(seq: number): number | null {
    for (let i = this.entryHead; i < this.entries.length; i++)
      if (this.entries[i].seq === seq) return this.entries[i].endPos;
    return null;
  }

  /** metadata's body. */
  metadata(): Record<string, unknown> {
    const unindexed = this.unindexedBytes;
    return {
      schema: this.schema.describeForMetadata(),
      approx_row_count: this.approxRowCount,
      approx_logical_bytes: this.approxLogicalBytes,
      created_at: new Date(this.createdAt).toISOString(),
      updated_at: new Date(this.updatedAt).toISOString(),
      last_write_at: new Date(this.lastWriteAt).toISOString(),
      encryption: { mode: 'default' },
      index: unindexed > 0 ? { status: 'updating', unindexed_bytes: unindexed } : { status: 'up-to-date' },
    };
  }

  /** Live documents including unindexed ones (performance.approx_namespace_size). */
  get liveDocuments(): number {
    return this.store.liveCount;
  }

  get liveLogicalBytes(): number {
    return this.liveBytes;
  }

  /** Closes the namespace; `destroy` also removes its log. Waits for in-flight writes. */
  close(destroy = false): Promise<void> {
    return this.exclusive(async () => {
      this.deleted = true;
      await Promise.all([...this.vectors.values()].map((slot) => slot.column.close()));
      if (destroy) await this.wal.destroy();
      else await this.wal.close();
    });
  }
}
