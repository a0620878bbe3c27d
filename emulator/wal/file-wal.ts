// The on-disk log used with --data-dir: numbered segment files of framed records (record.ts), fsynced before an
// append resolves, so an acknowledged write survives kill -9. On open, a short or corrupt frame at the end of the
// last segment (a crash mid-append, never acknowledged) is cut off; damage anywhere else is refused.
//
//   <dir>/wal-000000000001.log   records 1..k      segments roll at SEGMENT_BYTES
//   <dir>/wal-00000000000k+1.log records k+1..    (the name is the first seq in it)
//   <dir>/indexed.json           {"seq": n}        how far indexing had got (advisory: losing it only re-indexes)
import { constants } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeHeader, encodeHeader, HEADER_BYTES, verify } from './record';
import type { WalRecord, WriteAheadLog } from './wal';

/** A new segment starts once the current one is this big. */
export const SEGMENT_BYTES = 256 * 2 ** 20;

const SEGMENT = /^wal-(\d{12})\.log$/;
const segmentName = (firstSeq: number) => `wal-${String(firstSeq).padStart(12, '0')}.log`;

interface Segment {
  firstSeq: number;
  path: string;
  records: number;
  bytes: number;
}

export class WalCorruptError extends Error {
  override name = 'WalCorruptError';
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Reads one segment's frames; cuts a torn tail when `isLast`, throws on damage elsewhere. */
async function scanSegment(
  segment: Segment,
  isLast: boolean,
  onRecord?: (record: WalRecord) => void | Promise<void>,
): Promise<void> {
  const handle = await open(segment.path, 'r+');
  try {
    const size = (await handle.stat()).size;
    const header = Buffer.alloc(HEADER_BYTES);
    let offset = 0;
    let records = 0;
    while (offset < size) {
      const { bytesRead } = await handle.read(header, 0, HEADER_BYTES, offset);
      const decoded = bytesRead === HEADER_BYTES ? decodeHeader(header) : null;
      const end = decoded ? offset + HEADER_BYTES + decoded.bodyBytes : Number.POSITIVE_INFINITY;
      let body: Buffer | null = null;
      if (decoded && end <= size) {
        body = Buffer.allocUnsafe(decoded.bodyBytes);
        await handle.read(body, 0, decoded.bodyBytes, offset + HEADER_BYTES);
        if (!verify(header, decoded, body)) body = null;
      }
      if (!decoded || !body) {
        if (!isLast)
          throw new WalCorruptError(
            `${segment.path}: damaged record at byte ${offset}; refusing to guess what it held`,
          );
        // An append that never completed, so it was never acknowledged: drop it.
        await handle.truncate(offset);
        await handle.sync();
        break;
      }
      if (onRecord) await onRecord({ kind: decoded.kind, timeMs: decoded.timeMs, body });
      records++;
      offset = end;
    }
    segment.records = records;
    segment.bytes = offset;
  } finally {
    await handle.close();
  }
}

export class FileWal implements WriteAheadLog {
  private handle: FileHandle | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private seq = 0;
  private indexed = 0;
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly segments: Segment[],
  ) {}

  /** Opens (or creates) the log in `dir`, repairing a torn last record. */
  static async open(dir: string): Promise<FileWal> {
    await mkdir(dir, { recursive: true });
    const names = (await readdir(dir)).filter((n) => SEGMENT.test(n)).sort();
    const segments = names.map((name) => ({
      firstSeq: Number(SEGMENT.exec(name)?.[1]),
      path: join(dir, name),
      records: 0,
      bytes: 0,
    }));
    for (let i = 0; i < segments.length; i++) await scanSegment(segments[i], i === segments.length - 1);
    const wal = new FileWal(dir, segments);
    const last = segments[segments.length - 1];
    wal.seq = last ? last.firstSeq + last.records - 1 : 0;
    try {
      const saved = JSON.parse(await readFile(join(dir, 'indexed.json'), 'utf8')) as { seq?: unknown };
      if (typeof saved.seq === 'number') wal.indexed = Math.min(saved.seq, wal.seq);
    } catch {
      wal.indexed = 0; // no cursor yet: everything is re-indexed
    }
    return wal;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  append(record: WalRecord): Promise<number> {
    return this.serial(async () => {
      if (this.closed) throw new Error('write-ahead log is closed');
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
        await this.handle?.close();
        this.handle = await open(segment.path, 'a');
        await syncDir(this.dir);
      }
      const header = encodeHeader(record.kind, record.timeMs, record.body);
      await this.handle.writev([header, record.body]);
      // The acknowledgement promises durability: data and length reach the disk before we resolve.
      await this.handle.datasync();
      segment.bytes += header.length + record.body.length;
      segment.records++;
      return ++this.seq;
    });
  }

  async *replay(): AsyncIterable<{ seq: number; record: WalRecord }> {
    for (let i = 0; i < this.segments.length; i++) {
      const segment = this.segments[i];
      const records: WalRecord[] = [];
      await scanSegment({ ...segment }, false, (record) => {
        records.push(record);
      });
      for (let k = 0; k < records.length; k++) yield { seq: segment.firstSeq + k, record: records[k] };
    }
  }

  markIndexed(seq: number): Promise<void> {
    return this.serial(async () => {
      const next = Math.min(seq, this.seq);
      if (next <= this.indexed || this.closed) return;
      this.indexed = next;
      const tmp = join(this.dir, 'indexed.json.tmp');
      await writeFile(tmp, JSON.stringify({ seq: next }));
      await rename(tmp, join(this.dir, 'indexed.json'));
    });
  }

  get indexedSeq(): number {
    return this.indexed;
  }

  get lastSeq(): number {
    return this.seq;
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
    const doomed = `${this.dir}.deleted-${Date.now()}`;
    await rename(this.dir, doomed);
    await rm(doomed, { recursive: true, force: true });
  }
}
