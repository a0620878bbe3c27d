// The on-disk log used with --data-dir: numbered segment files of framed records (record.ts), fsynced before an
// append resolves, so an acknowledged write survives kill -9. On open every frame is verified (scan.ts): a torn last
// record (a crash mid-append, never acknowledged) is cut off and reported; any other damage, a gap between
// segments, a file the log does not write, or an index cursor past the end refuses to open, unless the caller asks
// to salvage: then copies of the affected files are kept and the log is cut at the first damage.
//
//   <dir>/wal-000000000001.log   records 1..k      segments roll at SEGMENT_BYTES
//   <dir>/wal-00000000000k+1.log records k+1..    (the name is the first seq in it)
//   <dir>/indexed.json           {"seq": n}        how far indexing had got (advisory: losing it only re-indexes)
//   <dir>/settings.json          read_only, pinning (acknowledged like a write: unreadable refuses to open)
import { constants } from 'node:fs';
import {
  copyFile,
  type FileHandle,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { walFaults } from './faults';
import { encodeHeader } from './record';
import { scanSegment } from './scan';
import type { NamespaceSettings, ReplayedRecord, WalRecord, WriteAheadLog } from './wal';

/** A new segment starts once the current one is this big. */
const SEGMENT_BYTES = 256 * 2 ** 20;

const SEGMENT = /^wal-(\d{12})\.log$/;
const segmentName = (firstSeq: number) => `wal-${String(firstSeq).padStart(12, '0')}.log`;
const CURSOR = 'indexed.json';
const CURSOR_TMP = 'indexed.json.tmp';
const SETTINGS = 'settings.json';
const SETTINGS_TMP = 'settings.json.tmp';

/** destroy() renames the log directory to this prefix first; a name that starts with it is a deletion to finish. */
export const DELETED_PREFIX = '.deleted-';

interface Segment {
  firstSeq: number;
  path: string;
  records: number;
  bytes: number;
}

/** What is wrong with a log, precisely enough to find it with a hex editor. */
export interface WalDamage {
  /** The file at fault (the log directory when several files are). */
  file: string;
  /** Byte offset of the first bad byte in `file`, when there is one. */
  offset: number | null;
  /** Sequence number of the first record that cannot be read, when known. */
  seq: number | null;
  reason: string;
  /** Whether salvaging can cut it off (stray files cannot: a person must look at them). */
  salvageable: boolean;
}

export class WalCorruptError extends Error {
  override name = 'WalCorruptError';
  constructor(readonly damage: WalDamage) {
    super(
      `${damage.file}${damage.offset === null ? '' : ` at byte ${damage.offset}`}` +
        `${damage.seq === null ? '' : ` (record ${damage.seq})`}: ${damage.reason}`,
    );
  }
}

/** What opening the log repaired or cut, for the startup report. */
export interface WalRecovery {
  /** A torn last record that was cut off: never acknowledged. */
  torn: { file: string; offset: number; bytes: number } | null;
  /** Salvage only: the damage, the bytes cut from there on, and where the original files were copied. */
  salvaged: { damage: WalDamage; cutBytes: number; intactRecordsCut: number; copiedTo: string } | null;
  /** Other things worth a line (an unreadable index cursor, a cursor clamped by salvage). */
  notes: string[];
}

/**
 * An append the file system refused (disk full, read-only, I/O error): nothing of it is in the log, so the write was
 * not accepted and may be sent again; the log takes appends again once the file system does.
 */
export class WalStorageError extends Error {
  override name = 'WalStorageError';
  constructor(
    readonly dir: string,
    override readonly cause: NodeJS.ErrnoException,
    /** The partial frame could not be cut off yet: the next append tries again first. */
    readonly repairPending: boolean,
  ) {
    super(`the data directory refused the write (${cause.code ?? 'error'}: ${cause.message})`);
  }
}

export interface OpenOptions {
  /** Cut the log at the first damage instead of refusing, after copying the affected files into this directory. */
  salvageTo?: string;
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The segments in `dir`, in order; refuses files the log does not write (they might be misnamed segments). */
async function listSegments(dir: string): Promise<Segment[]> {
  const segments: Segment[] = [];
  const strays: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const match = SEGMENT.exec(entry.name);
    if (match && entry.isFile())
      segments.push({ firstSeq: Number(match[1]), path: join(dir, entry.name), records: 0, bytes: 0 });
    else if (entry.name === CURSOR_TMP || entry.name === SETTINGS_TMP)
      await rm(join(dir, entry.name), { force: true }); // an interrupted update, never acknowledged
    else if (entry.name !== CURSOR && entry.name !== SETTINGS) strays.push(entry.name);
  }
  if (strays.length > 0)
    throw new WalCorruptError({
      file: strays.length === 1 ? join(dir, strays[0]) : dir,
      offset: null,
      seq: null,
      reason:
        `${strays.length === 1 ? 'this file is' : `${strays.map((s) => JSON.stringify(s)).join(', ')} are`} not part ` +
        'of the log (only wal-<12 digits>.log, indexed.json and settings.json belong here); move it out of the data directory, ' +
        'or rename it back if it is a segment',
      salvageable: false,
    });
  return segments.sort((a, b) => a.firstSeq - b.firstSeq);
}

export class FileWal implements WriteAheadLog {
  private handle: FileHandle | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private seq = 0;
  private indexed = 0;
  private closed = false;
  settings: NamespaceSettings | null = null;
  /**
   * Set when a failed append could not be cut back off (the file system refused that too): later appends would land
   * behind a partial frame, so each first tries the cut again, and the log takes appends once it succeeds.
   */
  private partial: { segment: Segment; error: NodeJS.ErrnoException } | null = null;

  private constructor(
    readonly dir: string,
    private readonly segments: Segment[],
  ) {}

  /** What open() repaired or cut (see WalRecovery). */
  recovery: WalRecovery = { torn: null, salvaged: null, notes: [] };

  /**
   * Opens (or creates) the log in `dir`: verifies every frame, cuts a torn last record, and throws WalCorruptError
   * on any other damage (or, with `salvageTo`, cuts the log there after copying the files it changes).
   */
  static async open(dir: string, options: OpenOptions = {}): Promise<FileWal> {
    walFaults.before('mkdir', dir);
    await mkdir(dir, { recursive: true });
    const segments = await listSegments(dir);
    const wal = new FileWal(dir, segments);
    let expected = 1;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i];
      const verdict = await verifySegment(segment, expected, i === segments.length - 1);
      if (verdict.kind === 'torn') {
        // An append that never completed, so it was never acknowledged: drop it.
        await truncate(segment.path, verdict.offset);
        await syncFile(segment.path);
        wal.recovery.torn = { file: segment.path, offset: verdict.offset, bytes: verdict.bytes };
      } else if (verdict.kind === 'damaged') {
        if (options.salvageTo === undefined) throw new WalCorruptError(verdict.damage);
        const { damage, cutAt, intactAfter } = verdict;
        wal.recovery.salvaged = await salvage(
          segments.splice(i),
          cutAt,
          damage,
          intactAfter,
          options.salvageTo,
        );
        if (cutAt > 0) segments.push(segment); // what came before the damage stays
        break;
      }
      expected += segment.records;
    }
    const last = segments[segments.length - 1];
    wal.seq = last ? last.firstSeq + last.records - 1 : 0;
    await wal.readCursor(options.salvageTo !== undefined);
    wal.settings = await readSettings(join(dir, SETTINGS));
    return wal;
  }

  /** Loads indexed.json; a cursor past the end of the log means records are missing. */
  private async readCursor(salvaging: boolean): Promise<void> {
    const path = join(this.dir, CURSOR);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return; // no cursor yet: everything is re-indexed
    }
    let saved: unknown;
    try {
      saved = (JSON.parse(text) as { seq?: unknown }).seq;
    } catch {
      saved = undefined;
    }
    if (typeof saved !== 'number' || !Number.isInteger(saved) || saved < 0) {
      this.recovery.notes.push(`${path} is unreadable; everything is indexed again from the start`);
      return;
    }
    if (saved > this.seq && !salvaging)
      throw new WalCorruptError({
        file: path,
        offset: null,
        seq: this.seq + 1,
        reason:
          `the index cursor says records up to ${saved} were indexed, but the log ends at record ${this.seq}: ` +
          `records ${this.seq + 1}..${saved} are missing (a segment was removed or cut short)`,
        salvageable: true,
      });
    this.indexed = Math.min(saved, this.seq);
    if (saved > this.seq) {
      await this.writeCursor(this.indexed);
      this.recovery.notes.push(`the index cursor said ${saved}; it now points at the log's end, ${this.seq}`);
    }
  }

  private async writeCursor(seq: number): Promise<void> {
    const tmp = join(this.dir, CURSOR_TMP);
    walFaults.before('cursor', tmp);
    await writeFile(tmp, JSON.stringify({ seq }));
    await rename(tmp, join(this.dir, CURSOR));
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  append(record: WalRecord): Promise<number> {
    return this.serial(async () => {
      if (this.closed) throw new Error('write-ahead log is closed');
      if (this.partial) await this.cutPartial();
      let segment = this.segments[this.segments.length - 1];
      if (!segment || !this.handle || segment.bytes >= SEGMENT_BYTES) {
        if (!segment || segment.bytes >= SEGMENT_BYTES) {
          segment = {
            firstSeq: this.seq + 1,
            path: join(this.dir, segmentName(this.seq + 1)),
            records: 0,
            bytes: 0,
          };
          this.segments.push(segment);
        }
        const previous = this.handle;
        // Null first: if the open below fails, the next append opens again instead of writing to a closed handle.
        this.handle = null;
        await previous?.close();
        try {
          walFaults.before('open', segment.path);
          this.handle = await open(segment.path, 'a');
          await syncDir(this.dir);
        } catch (error) {
          throw storageError(this.dir, error, false);
        }
      }
      const handle = this.handle as FileHandle;
      const header = encodeHeader(record.kind, record.timeMs, record.body);
      try {
        walFaults.before('write', segment.path);
        await writeAll(handle, header, record.body);
        // The acknowledgement promises durability: data and length reach the disk before we resolve.
        walFaults.before('sync', segment.path);
        await handle.datasync();
      } catch (error) {
        // A failed append (disk full, I/O error) must not leave a partial frame for later records to land behind:
        // that would read as damage in the middle of the log on the next start.
        this.partial = { segment, error: error as NodeJS.ErrnoException };
        await this.cutPartial().catch(() => undefined);
        throw storageError(this.dir, error, this.partial !== null);
      }
      segment.bytes += header.length + record.body.length;
      segment.records++;
      return ++this.seq;
    });
  }

  /** Cuts what a failed append left after the last durable record; throws while the file system refuses it. */
  private async cutPartial(): Promise<void> {
    const partial = this.partial;
    if (!partial) return;
    try {
      walFaults.before('truncate', partial.segment.path);
      if (this.handle) {
        await this.handle.truncate(partial.segment.bytes);
        await this.handle.datasync();
      } else await truncate(partial.segment.path, partial.segment.bytes);
    } catch (error) {
      // A segment whose open failed does not exist: there is nothing to cut.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw storageError(this.dir, error, true);
    }
    this.partial = null;
  }

  async *replay(): AsyncIterable<ReplayedRecord> {
    for (let i = 0; i < this.segments.length; i++) {
      const segment = this.segments[i];
      const records: WalRecord[] = [];
      const offsets: number[] = [];
      const scan = await scanSegment(segment.path, (record, offset) => {
        if (records.length >= segment.records) return;
        records.push(record);
        offsets.push(offset);
      });
      if (scan.records < segment.records)
        throw new WalCorruptError({
          file: segment.path,
          offset: scan.goodBytes,
          seq: segment.firstSeq + scan.records,
          reason: 'the segment changed while the emulator was running',
          salvageable: true,
        });
      for (let k = 0; k < records.length; k++)
        yield {
          seq: segment.firstSeq + k,
          record: records[k],
          at: { file: segment.path, offset: offsets[k] },
        };
    }
  }

  markIndexed(seq: number): Promise<void> {
    return this.serial(async () => {
      const next = Math.min(seq, this.seq);
      if (next <= this.indexed || this.closed) return;
      try {
        await this.writeCursor(next);
        this.indexed = next;
      } catch {
        // The cursor is advisory (a stale one only means indexing again after a restart), and a full or read-only
        // disk must not stop indexing: the next batch writes it again.
      }
    });
  }

  get indexedSeq(): number {
    return this.indexed;
  }

  get lastSeq(): number {
    return this.seq;
  }

  saveSettings(settings: NamespaceSettings): Promise<void> {
    return this.serial(async () => {
      if (this.closed) throw new Error('write-ahead log is closed');
      const tmp = join(this.dir, SETTINGS_TMP);
      try {
        walFaults.before('settings', tmp);
        await writeFile(tmp, `${JSON.stringify(settings)}\n`);
        await syncFile(tmp);
        await rename(tmp, join(this.dir, SETTINGS));
        await syncDir(this.dir);
      } catch (error) {
        await rm(tmp, { force: true }).catch(() => {});
        throw storageError(this.dir, error, false);
      }
      this.settings = settings;
    });
  }

  close(): Promise<void> {
    return this.serial(async () => {
      this.closed = true;
      await this.handle?.close();
      this.handle = null;
    });
  }

  async destroy(): Promise<void> {
    await this.close();
    // Rename first so a crash mid-removal never leaves a half-deleted log that looks alive.
    const doomed = join(dirname(this.dir), `${DELETED_PREFIX}${Date.now()}-${basename(this.dir)}`);
    await rename(this.dir, doomed);
    await rm(doomed, { recursive: true, force: true });
  }
}

/** settings.json, checked field by field: it holds acknowledged settings, so damage refuses to open the log. */
async function readSettings(path: string): Promise<NamespaceSettings | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const damaged = (why: string) =>
    new WalCorruptError({
      file: path,
      offset: null,
      seq: null,
      reason: `the namespace's settings (read_only, pinning) are damaged: ${why}; restore the file or remove it to start with the defaults (writable, unpinned)`,
      salvageable: false,
    });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw damaged('not JSON');
  }
  const v = value as { readOnly?: unknown; pinning?: { replicas?: unknown; since?: unknown } | null };
  if (value === null || typeof value !== 'object' || typeof v.readOnly !== 'boolean')
    throw damaged('expected {"readOnly": true|false, "pinning": ...}');
  if (v.pinning === null) return { readOnly: v.readOnly, pinning: null };
  const { replicas, since } = v.pinning ?? {};
  if (
    !Number.isInteger(replicas) ||
    (replicas as number) < 1 ||
    typeof since !== 'number' ||
    !Number.isFinite(since)
  )
    throw damaged('expected "pinning": null or {"replicas": n >= 1, "since": epoch ms}');
  return { readOnly: v.readOnly, pinning: { replicas: replicas as number, since } };
}

/** A file-system error as a WalStorageError (a programming error, without an errno code, passes through). */
function storageError(dir: string, error: unknown, repairPending: boolean): Error {
  const e = error as NodeJS.ErrnoException;
  return typeof e?.code === 'string' ? new WalStorageError(dir, e, repairPending) : (error as Error);
}

type SegmentVerdict =
  | { kind: 'ok' }
  | { kind: 'torn'; offset: number; bytes: number }
  | { kind: 'damaged'; damage: WalDamage; cutAt: number; intactAfter: number };

/** Scans one segment that should start at record `expected`; fills in its record count and good bytes. */
async function verifySegment(segment: Segment, expected: number, isLast: boolean): Promise<SegmentVerdict> {
  if (segment.firstSeq !== expected) {
    const reason =
      segment.firstSeq > expected
        ? `the segment starts at record ${segment.firstSeq}, but the segments before it end at record ` +
          `${expected - 1}: records ${expected}..${segment.firstSeq - 1} are missing`
        : `the segment starts at record ${segment.firstSeq}, but the segments before it already hold records ` +
          `up to ${expected - 1}`;
    return {
      kind: 'damaged',
      damage: { file: segment.path, offset: null, seq: expected, reason, salvageable: true },
      cutAt: 0,
      intactAfter: 0,
    };
  }
  const scan = await scanSegment(segment.path);
  segment.records = scan.records;
  segment.bytes = scan.goodBytes;
  const end = scan.end;
  if (end.kind === 'clean') return { kind: 'ok' };
  if (end.kind === 'torn' && isLast) return end;
  const intactAfter = end.kind === 'damaged' ? end.intactAfter : 0;
  const reason =
    end.kind === 'torn'
      ? 'the segment ends inside a record, but later segments exist'
      : `${end.reason}${intactAfter > 0 ? `; ${intactAfter} intact records follow it` : ''}`;
  return {
    kind: 'damaged',
    damage: {
      file: segment.path,
      offset: end.offset,
      seq: expected + scan.records,
      reason,
      salvageable: true,
    },
    cutAt: scan.goodBytes,
    intactAfter,
  };
}

/** Writes a frame; a short write (rare on regular files, but allowed) is completed rather than left torn. */
async function writeAll(handle: FileHandle, header: Buffer, body: Buffer): Promise<void> {
  const total = header.length + body.length;
  let written = (await handle.writev([header, body])).bytesWritten;
  while (written < total) {
    const rest =
      written < header.length
        ? Buffer.concat([header.subarray(written), body])
        : body.subarray(written - header.length);
    written += (await handle.write(rest)).bytesWritten;
  }
}

/**
 * Copies `segments` (the damaged one first, then every later one) into `into`, then cuts the damaged one at `cutAt`
 * (removing it when nothing before the damage is left) and removes the later ones.
 */
async function salvage(
  segments: Segment[],
  cutAt: number,
  damage: WalDamage,
  intactAfter: number,
  into: string,
): Promise<NonNullable<WalRecovery['salvaged']>> {
  await mkdir(into, { recursive: true });
  let cutBytes = 0;
  for (const [k, segment] of segments.entries()) {
    await copyFile(segment.path, join(into, basename(segment.path)));
    const size = (await stat(segment.path)).size;
    if (k === 0 && cutAt > 0) {
      await truncate(segment.path, cutAt);
      await syncFile(segment.path);
      cutBytes += size - cutAt;
    } else {
      await rm(segment.path);
      cutBytes += size;
    }
  }
  await syncDir(into);
  await syncDir(dirname(segments[0].path));
  return { damage, cutBytes, intactRecordsCut: intactAfter, copiedTo: into };
}
