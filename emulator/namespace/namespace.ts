// One namespace: schema, documents, vector columns, attribute indexes and the write-ahead log, plus how far
// indexing has got. Writes are serialized: validate, log (durable), apply; then, outside the lock so that writes
// arriving meanwhile ride along, the group commit to object storage (write/group-commit.ts); then acknowledge.
// Reads take a view of the state at a log position (strong: the committed head; eventual: the index cursor plus a
// bounded prefix of the tail); applied writes past the committed head are invisible to both, and to the indexer.
//
//   log position:  0 ........ cursorPos ............ eventual horizon ........ headPos ....... store.headPos
//                  |  indexed  |   unindexed tail: strong scans all of it           | applied, |
//                              |  eventual scans up to the tail limit  |              committing

import type { Consistency, DistanceMetric } from '../../lib/turbopuffer-wire';
import { ApiError, notFound, serviceUnavailable } from '../api-error';
import type { EmulatorConfig } from '../config';
import { AttributeIndex } from '../index/attribute-index';
import { FtsIndex } from '../index/fts-index';
import { QueryGate } from '../query/gate';
import { DocStore } from '../storage/doc-store';
import { createSlot, type VectorSlot } from '../storage/vector-slot';
import { orInPlace, resizedCopy } from '../vector/bitset';
import type { RowBitset, VectorColumn } from '../vector/types';
import { WalStorageError } from '../wal/file-wal';
import type { NamespaceSettings, WalRecord, WriteAheadLog } from '../wal/wal';
import type { DocId } from '../wire/ids';
import { DECODE_SLICE_ROWS, decodeVectors, plainAllocator } from '../wire/vectors';
import { readWriteBody, type WriteRequest, writeVectorBatches } from '../wire/write-request';
import { appendWriteVectors, applyWriteRows } from '../write/apply';
import { type BacklogState, checkWriteBackpressure } from '../write/backpressure';
import { GroupCommit } from '../write/group-commit';
import { type PreparedWrite, prepareWrite } from '../write/prepare';
import { writeTurn } from '../write/turn';
import { NamespaceCache } from './cache';
import { NamespaceSchema } from './schema';

export type VectorColumnFactory = (spec: { dims: number; metric: DistanceMetric }) => VectorColumn;

export type NamespaceConfig = Pick<
  EmulatorConfig,
  | 'backlogLimitBytes'
  | 'eventualTailLimitBytes'
  | 'indexBytesPerSecond'
  | 'indexBurstBytes'
  | 'querySlots'
  | 'queryWaitMs'
  | 'latency'
>;

/** One logged write: where it sits in the log and what it changed, applied to approx_* once indexed. */
interface LogEntry {
  seq: number;
  endPos: number;
  rowCountDelta: number;
  logicalBytesDelta: number;
  /** Live documents once this write is applied (a read view ending here holds that many). */
  liveAfter: number;
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
  consistency: Consistency;
  pos: number;
  rows: number;
  indexedRows: number;
  dead: RowBitset;
}

/** A document or schema write to a namespace set read-only (PATCH .../metadata {"read_only": true}). */
function readOnlyError(name: string): ApiError {
  return new ApiError(
    403,
    `namespace '${name}' is read-only: document and schema writes are rejected; set "read_only": false with PATCH /v1/namespaces/${name}/metadata to write again`,
  );
}

/** How long a client is told to wait before retrying a write the data directory refused. */
const STORAGE_RETRY_MS = 1000;

/** A write the data directory refused (full, read-only) is a 503 the SDKs retry; nothing of it was logged. */
export function refusedByStorage(error: unknown): never {
  if (error instanceof WalStorageError)
    throw serviceUnavailable(
      `write not accepted: ${error.message}; it was not applied and every acknowledged write is kept` +
        // A frame written but not durable that the file system would not let us cut off: a crash before the
        // next append cuts it could leave it in the log, so say so rather than promise it is gone.
        (error.repairPending
          ? ', but its record could not be removed from the log yet: if the emulator stops before the data ' +
            'directory takes writes again, the write may be found in the log on restart'
          : '') +
        '. Retry once the data directory takes writes again (free space, or make it writable)',
      STORAGE_RETRY_MS,
    );
  throw error;
}

export class Namespace {
  readonly schema = new NamespaceSchema();
  readonly store = new DocStore();
  readonly vectors = new Map<string, VectorSlot>();
  readonly attributeIndex = new AttributeIndex();
  /** Inverted indexes of the full-text attributes, built by the indexer beside the attribute postings. */
  readonly ftsIndex = new FtsIndex();
  readonly gate: QueryGate;
  /** What a query node holds of this namespace (performance.cache_temperature); a new namespace is hot. */
  readonly cache: NamespaceCache;
  createdAt = Date.now();
  updatedAt = this.createdAt;
  lastWriteAt = this.createdAt;
  /** Log position up to which everything is indexed. */
  cursorPos = 0;
  indexedRows = 0;
  approxRowCount = 0;
  approxLogicalBytes = 0;
  deleted = false;
  /** Writes begun through the registry and not yet answered (a namespace no write got into is dropped). */
  writesInFlight = 0;
  /** Called after each committed write: it is visible now (the indexer listens). */
  onWrite: () => void = () => {};
  /** Logical bytes of the live documents (maintained by write/apply.ts). */
  liveBytes = 0;
  /** `sharding.num_shards` from the first write; null when it gave none. */
  numShards: number | null = null;
  private writesApplied = 0;
  private readonly entries: LogEntry[] = [];
  private entryHead = 0;
  /** Where the last write the index cursor passed whole ends: the cursor is inside a write when beyond it. */
  private passedEnd = 0;
  private lock: Promise<unknown> = Promise.resolve();
  /** Null without a latency model: a write is visible as soon as it is applied. */
  private readonly commits: GroupCommit | null;
  /** Applied writes whose commit is not durable yet, in seq order: where each ends and the rows after it. */
  private readonly uncommitted: { seq: number; endPos: number; rows: number }[] = [];
  /** End of the last committed write: what strong reads, eventual reads and the indexer see at most. */
  private committedPos = 0;
  private committedRows = 0;

  constructor(
    readonly name: string,
    readonly wal: WriteAheadLog,
    private readonly createColumn: VectorColumnFactory,
    readonly config: NamespaceConfig,
  ) {
    this.gate = new QueryGate(config.querySlots, config.queryWaitMs);
    const latency = config.latency;
    this.cache = new NamespaceCache(latency ? latency.coldRoundTrips * latency.objectGetMs : 0);
    this.commits = latency
      ? new GroupCommit({ intervalMs: latency.commitIntervalMs, putMs: latency.objectPutMs }, (seq) =>
          this.committed(seq),
        )
      : null;
  }

  /** The committed head: the end of the last write whose commit is durable (the indexer drains up to here). */
  get headPos(): number {
    return this.committedPos;
  }

  /** Committed bytes not yet indexed (metadata's index.unindexed_bytes; backpressure). */
  get unindexedBytes(): number {
    return this.committedPos - this.cursorPos;
  }

  /**
   * Where this namespace's indexer stops indexing unpaced (its Indexer.unpacedTo, set by the registry): the
   * --index-burst, or after a restart the part indexed before it.
   */
  unpacedTo: () => number = () => this.config.indexBurstBytes;

  /** The backlog and how fast it drains now (unpaced up to unpacedTo()): backpressure and its retry hint. */
  get backlog(): BacklogState {
    const inBurst = this.cursorPos < this.unpacedTo();
    return {
      unindexedBytes: this.unindexedBytes,
      limitBytes: this.config.backlogLimitBytes,
      indexBytesPerSecond: inBurst ? Number.POSITIVE_INFINITY : this.config.indexBytesPerSecond,
    };
  }

  /** Runs `work` alone among this namespace's writes. */
  exclusive<T>(work: () => Promise<T> | T): Promise<T> {
    const run = this.lock.then(work, work);
    this.lock = run.catch(() => undefined);
    return run;
  }

  /** Set by PATCH .../metadata: document and schema writes get 403 (kept by the log, so a restart keeps it). */
  get readOnly(): boolean {
    return this.wal.settings?.readOnly ?? false;
  }

  /** Set by PATCH .../metadata: the replicas asked for and since when (kept by the log). */
  get pinning(): NamespaceSettings['pinning'] {
    return this.wal.settings?.pinning ?? null;
  }

  /**
   * Applies a PATCH .../metadata once the log has kept it: `replicas` 0 unpins, a new count restarts the status
   * clock, the same count leaves it; a data directory that refuses the change leaves everything as it was (503).
   */
  updateSettings(change: { replicas?: number; readOnly?: boolean }): Promise<void> {
    return this.exclusive(async () => {
      if (this.deleted) throw notFound(this.name);
      let pinning = this.pinning;
      if (change.replicas === 0) pinning = null;
      else if (change.replicas !== undefined && pinning?.replicas !== change.replicas)
        pinning = { replicas: change.replicas, since: Date.now() };
      const readOnly = change.readOnly ?? this.readOnly;
      if (readOnly === this.readOnly && pinning === this.pinning) return;
      await this.wal.saveSettings({ readOnly, pinning }).catch(refusedByStorage);
    });
  }

  /** Validates, logs and applies one write; resolves once it is durable (committed) and visible. */
  async write(req: WriteRequest, body: Buffer): Promise<WriteResult> {
    // Decoding needs no namespace state: do it in slices before taking the write lock.
    await decodeVectors(writeVectorBatches(req), DECODE_SLICE_ROWS, writeTurn);
    const { result, seq } = await this.exclusive(async () => {
      if (this.deleted) throw notFound(this.name);
      if (this.readOnly) throw readOnlyError(this.name);
      checkWriteBackpressure(req, this.backlog);
      const prepared = prepareWrite(req, this);
      const timeMs = Date.now();
      const seq = await this.wal.append({ kind: 'write', timeMs, body }).catch(refusedByStorage);
      if (this.deleted) throw notFound(this.name);
      return { result: await this.apply(prepared, seq, timeMs), seq };
    });
    if (this.commits) {
      await this.commits.commit(seq);
      if (this.deleted) throw notFound(this.name);
    }
    return result;
  }

  /** Re-applies a logged record during recovery (no logging, no backpressure). */
  async replay(seq: number, record: WalRecord): Promise<void> {
    const req = await readWriteBody(record.body, {
      vectorColumns: new Set(this.schema.vectorColumns()),
      vectorDims: (name) => this.vectorDims(name),
      alloc: plainAllocator,
    });
    await decodeVectors(writeVectorBatches(req), DECODE_SLICE_ROWS, writeTurn);
    await this.apply(prepareWrite(req, this), seq, record.timeMs);
    this.commits?.startAfter(seq);
    this.committed(seq);
  }

  /** The namespace has applied a write (its first write fixed its sharding). */
  get created(): boolean {
    return this.writesApplied > 0;
  }

  vectorDims(name: string): number | null {
    const spec = this.schema.attribute(name);
    return spec?.type.kind === 'vector' ? spec.type.dims : null;
  }

  private async apply(prepared: PreparedWrite, seq: number, timeMs: number): Promise<WriteResult> {
    const { schema, store } = this;
    for (const name of prepared.drops) {
      schema.attributes.delete(name);
      this.attributeIndex.drop(name);
      this.ftsIndex.drop(name);
      store.attributes.delete(name);
      const slot = this.vectors.get(name);
      if (slot) {
        this.vectors.delete(name);
        await slot.column.close();
      }
    }
    for (const [name, spec] of prepared.schemaChanges) {
      const before = schema.attribute(name);
      schema.attributes.set(name, spec);
      if (before?.filterable && !spec.filterable) this.attributeIndex.drop(name);
      if (before?.fullTextSearch && !spec.fullTextSearch) this.ftsIndex.drop(name);
    }
    if (prepared.numShards !== null) this.numShards = prepared.numShards;
    this.writesApplied++;
    if (prepared.idType) schema.idType = prepared.idType;
    if (prepared.distanceMetric) schema.distanceMetric = prepared.distanceMetric;
    // New vector columns start before this write's rows (earlier rows get zero vectors marked missing).
    for (const docs of prepared.upserts) for (const name of docs.vectors.keys()) this.slot(name);
    await appendWriteVectors(this, prepared);
    const countBefore = store.liveCount;
    const bytesBefore = this.liveBytes;
    const applied = applyWriteRows(this, prepared);
    this.entries.push({
      seq,
      endPos: applied.endPos,
      rowCountDelta: store.liveCount - countBefore,
      logicalBytesDelta: this.liveBytes - bytesBefore,
      liveAfter: store.liveCount,
    });
    // The first logged write creates the namespace (live and on replay alike).
    if (seq === 1) {
      this.createdAt = timeMs;
      this.lastWriteAt = timeMs;
    }
    this.updatedAt = timeMs;
    if (applied.bytes > 0) this.lastWriteAt = timeMs;
    this.uncommitted.push({ seq, endPos: store.headPos, rows: store.rowCount });
    if (!this.commits) this.committed(seq);
    return { ...applied, rowsRemaining: prepared.rowsRemaining };
  }

  /** Writes up to `seq` are durable: readers and the indexer may see them. */
  private committed(seq: number): void {
    let last: { endPos: number; rows: number } | undefined;
    while (this.uncommitted.length > 0 && this.uncommitted[0].seq <= seq) last = this.uncommitted.shift();
    if (!last) return;
    this.committedPos = last.endPos;
    this.committedRows = last.rows;
    this.onWrite();
  }

  /** The vector slot for a column, created (zero-filled for earlier rows) on first use. */
  private slot(name: string): VectorSlot {
    let slot = this.vectors.get(name);
    if (slot) return slot;
    const spec = this.schema.attribute(name);
    if (spec?.type.kind !== 'vector') throw new Error(`internal: ${name} is not a vector column`);
    const metric = spec.distanceMetric ?? this.schema.distanceMetric ?? 'cosine_distance';
    slot = createSlot(this.createColumn({ dims: spec.type.dims, metric }), this.store.rowCount);
    this.vectors.set(name, slot);
    return slot;
  }

  /** The state a query reads. Eventual views stop at the last write that fits in the tail limit. */
  view(consistency: Consistency): ReadView {
    let pos = this.committedPos;
    if (consistency === 'eventual') pos = this.eventualHorizon();
    const rows =
      pos >= this.store.headPos
        ? this.store.rowCount
        : pos === this.committedPos
          ? this.committedRows
          : this.store.rowsUpTo(pos);
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
    if (limit >= this.committedPos) return this.committedPos;
    // Writes are atomic: the view ends where one does. Indexing may stop inside a write, and the view then takes
    // that write whole even past the limit (cutting at the cursor showed part of it: the consistency suite's
    // regressions/eventual-read-inside-a-write.json).
    const inside = this.cursorPos > this.passedEnd ? this.entries[this.entryHead] : undefined;
    const last = this.lastPendingEntryBy(limit);
    return Math.max(this.cursorPos, inside?.endPos ?? 0, last?.endPos ?? 0);
  }

  /** The last not-yet-indexed write that ends at or before `pos` (binary search over pending entries). */
  private lastPendingEntryBy(pos: number): LogEntry | undefined {
    let lo = this.entryHead;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid].endPos <= pos) lo = mid + 1;
      else hi = mid;
    }
    return lo > this.entryHead ? this.entries[lo - 1] : undefined;
  }

  /** Rows a vector search must skip in `column` for a view: dead rows plus rows without a vector there. */
  deadFor(slot: VectorSlot, view: ReadView): RowBitset {
    if (slot.missingCount === 0) return view.dead;
    return orInPlace(resizedCopy(view.dead, view.rows), slot.missing);
  }

  /** Extends the indexes to log position `pos` (called by the indexer; never concurrently with itself). */
  async indexTo(pos: number): Promise<void> {
    const target = Math.min(pos, this.committedPos);
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
    // Full-text postings likewise; analyzing text costs more per row than posting a value, so smaller slices.
    const fullText = this.schema.fullText();
    if (fullText.length > 0)
      for (let at = this.ftsIndex.coveredRows(fullText); at < rows; ) {
        at = Math.min(rows, at + 5_000);
        this.ftsIndex.addRows(at, this.store, fullText);
        if (this.deleted) return;
        if (at < rows) await new Promise((resolve) => setImmediate(resolve));
      }
    this.indexedRows = Math.max(this.indexedRows, rows);
    this.cursorPos = target;
    let seq = 0;
    while (this.entryHead < this.entries.length && this.entries[this.entryHead].endPos <= target) {
      const entry = this.entries[this.entryHead++];
      this.passedEnd = entry.endPos;
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
    // unindexed_rows: the row versions past the index cursor, the rows a strong query scans exhaustively.
    const index =
      unindexed > 0
        ? {
            status: 'updating',
            unindexed_bytes: unindexed,
            unindexed_rows: this.committedRows - this.indexedRows,
          }
        : { status: 'up-to-date' };
    const out: Record<string, unknown> = {
      schema: this.schema.describeForMetadata(),
      approx_row_count: this.approxRowCount,
      approx_logical_bytes: this.approxLogicalBytes,
      created_at: new Date(this.createdAt).toISOString(),
      updated_at: new Date(this.updatedAt).toISOString(),
      last_write_at: new Date(this.lastWriteAt).toISOString(),
      encryption: { mode: 'default' },
      index,
    };
    // Each of these only when set, as the service omits them.
    if (this.pinning) {
      const { replicas, since } = this.pinning;
      // The emulator has no replicas to warm: every one is ready and idle at once.
      out.pinning = {
        replicas,
        status: {
          ready_replicas: replicas,
          replicas,
          updated_at: new Date(since).toISOString(),
          utilization: 0,
        },
      };
    }
    if (this.readOnly) out.read_only = true;
    if (this.numShards !== null) out.sharding = { num_shards: this.numShards };
    return out;
  }

  /** Live documents including unindexed ones. */
  get liveDocuments(): number {
    return this.store.liveCount;
  }

  /**
   * Live documents a read view holds (performance.approx_namespace_size): the indexed ones plus the unindexed
   * tail it reads. Views end at the head, at the end of a logged write, or at the index cursor.
   */
  liveDocumentsIn(view: ReadView): number {
    if (view.pos >= this.store.headPos) return this.store.liveCount;
    return this.lastPendingEntryBy(view.pos)?.liveAfter ?? this.approxRowCount;
  }

  /** Closes the namespace; `destroy` also removes its log. Waits for in-flight writes. */
  close(destroy = false): Promise<void> {
    this.commits?.close();
    return this.exclusive(async () => {
      this.deleted = true;
      await Promise.all([...this.vectors.values()].map((slot) => slot.column.close()));
      if (destroy) await this.wal.destroy();
      else await this.wal.close();
    });
  }
}
