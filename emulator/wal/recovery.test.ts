// What opening a damaged file log does, as properties over random logs (fast-check): a torn tail is cut exactly and
// reported, any other damage is refused naming the record and byte where it starts and leaves the files unchanged,
// and salvaging cuts there after keeping copies. Bodies are arbitrary bytes: recovery reads framing, never contents.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FileWal, WalCorruptError } from './file-wal';
import { encodeHeader, HEADER_BYTES } from './record';

const root = mkdtempSync(join(tmpdir(), 'bench-wal-recovery-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `ns-${++dirs}`);

/** Runs per property: a few hundred milliseconds each. */
const RUNS = 60;

const frame = (body: Uint8Array, timeMs = 1): Buffer =>
  Buffer.concat([encodeHeader('write', timeMs, body), body]);

const bodies = fc.array(fc.uint8Array({ minLength: 1, maxLength: 200 }), { minLength: 1, maxLength: 8 });

/** A log directory holding one file with `bytes`. */
function writeSync(dir: string, file: string, bytes: Buffer): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, bytes);
}

/** A log directory with one segment holding `records`; returns the segment path and each frame's start. */
function writeLog(records: Uint8Array[]): { dir: string; file: string; starts: number[]; size: number } {
  const dir = freshDir();
  const frames = records.map((r, i) => frame(r, i + 1));
  const starts: number[] = [];
  let size = 0;
  for (const f of frames) {
    starts.push(size);
    size += f.length;
  }
  const file = join(dir, 'wal-000000000001.log');
  writeSync(dir, file, Buffer.concat(frames));
  return { dir, file, starts, size };
}

async function bodiesOf(wal: FileWal): Promise<string[]> {
  const out: string[] = [];
  for await (const { record } of wal.replay()) out.push(Buffer.from(record.body).toString('hex'));
  return out;
}
const hex = (records: Uint8Array[]) => records.map((r) => Buffer.from(r).toString('hex'));

async function refusal(dir: string): Promise<WalCorruptError> {
  const error = await FileWal.open(dir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalCorruptError);
  return error as WalCorruptError;
}

describe('file log recovery (properties)', () => {
  it('a log cut short anywhere keeps exactly the whole records before the cut and reports the torn bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodies,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        async (records, at) => {
          const { dir, file, starts, size } = writeLog(records);
          const cut = Math.floor(at * size);
          writeFileSync(file, readFileSync(file).subarray(0, cut));
          const whole = starts.filter((_start, i) => (starts[i + 1] ?? size) <= cut).length;
          const wal = await FileWal.open(dir);
          expect(await bodiesOf(wal)).toEqual(hex(records.slice(0, whole)));
          const tornBytes = cut - (starts[whole] ?? size);
          expect(wal.recovery.torn).toEqual(
            tornBytes > 0 ? { file, offset: starts[whole], bytes: tornBytes } : null,
          );
          expect(statSync(file).size).toBe(starts[whole] ?? size);
          // The repaired log appends right after the last whole record, and reopens clean.
          expect(await wal.append({ kind: 'write', timeMs: 9, body: Buffer.from('next') })).toBe(whole + 1);
          await wal.close();
          const again = await FileWal.open(dir);
          expect(again.recovery.torn).toBeNull();
          expect(again.lastSeq).toBe(whole + 1);
          await again.close();
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('one changed byte anywhere refuses to open, naming the record and where its frame starts', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodies,
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (records, pick, pos, mask) => {
          const { dir, file, starts, size } = writeLog(records);
          const k = pick % records.length;
          const frameBytes = (starts[k + 1] ?? size) - starts[k];
          const bytes = readFileSync(file);
          bytes[starts[k] + (pos % frameBytes)] ^= mask;
          writeFileSync(file, bytes);
          const error = await refusal(dir);
          expect(error.damage).toMatchObject({ file, offset: starts[k], seq: k + 1, salvageable: true });
          expect(readFileSync(file).equals(bytes)).toBe(true); // nothing was cut
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it('a length field set to 2^31 - 1 refuses to open, in any record', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, fc.nat(), async (records, pick) => {
        const { dir, file, starts } = writeLog(records);
        const k = pick % records.length;
        const bytes = readFileSync(file);
        bytes.writeUInt32LE(2 ** 31 - 1, starts[k] + 4);
        writeFileSync(file, bytes);
        const error = await refusal(dir);
        expect(error.damage).toMatchObject({ offset: starts[k], seq: k + 1 });
        expect(error.message).toContain(`${file} at byte ${starts[k]} (record ${k + 1})`);
      }),
      { numRuns: RUNS },
    );
  });

  it('bytes after the last record that do not start a record refuse to open', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodies,
        fc.uint8Array({ minLength: 1, maxLength: 64 }).filter((b) => b[0] !== 0x54),
        async (records, junk) => {
          const { dir, file, size } = writeLog(records);
          writeFileSync(file, Buffer.concat([readFileSync(file), junk]));
          const error = await refusal(dir);
          expect(error.damage).toMatchObject({ offset: size, seq: records.length + 1 });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('salvage cuts at the damage, keeps copies of the original files, and then opens clean', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, fc.nat(), async (records, pick) => {
        const { dir, file, starts } = writeLog(records);
        const k = pick % records.length;
        const bytes = readFileSync(file);
        bytes[starts[k] + HEADER_BYTES] ^= 0x01; // first body byte
        writeFileSync(file, bytes);
        const salvageTo = `${dir}-salvaged`;
        const wal = await FileWal.open(dir, { salvageTo });
        expect(await bodiesOf(wal)).toEqual(hex(records.slice(0, k)));
        expect(wal.recovery.salvaged).toMatchObject({
          damage: { offset: starts[k], seq: k + 1 },
          cutBytes: bytes.length - starts[k],
          intactRecordsCut: records.length - k - 1,
          copiedTo: salvageTo,
        });
        expect(readFileSync(join(salvageTo, 'wal-000000000001.log')).equals(bytes)).toBe(true);
        await wal.close();
        const again = await FileWal.open(dir);
        expect(again.lastSeq).toBe(k);
        await again.close();
      }),
      { numRuns: RUNS },
    );
  });
});

describe('file log recovery (segments and side files)', () => {
  const seg = (first: number) => `wal-${String(first).padStart(12, '0')}.log`;
  const twoRecords = () => Buffer.concat([frame(Buffer.from('a')), frame(Buffer.from('b'))]);

  it('an empty last segment (a crash right after a roll) opens with the records before it', async () => {
    const dir = freshDir();
    writeSync(dir, join(dir, seg(1)), twoRecords());
    writeFileSync(join(dir, seg(3)), '');
    const wal = await FileWal.open(dir);
    expect(wal.lastSeq).toBe(2);
    expect(await wal.append({ kind: 'write', timeMs: 1, body: Buffer.from('c') })).toBe(3);
    await wal.close();
  });

  it('an empty only segment opens as an empty log', async () => {
    const dir = freshDir();
    writeSync(dir, join(dir, seg(1)), Buffer.alloc(0));
    const wal = await FileWal.open(dir);
    expect(wal.lastSeq).toBe(0);
    expect(wal.recovery.torn).toBeNull();
    await wal.close();
  });

  it('a missing segment (a gap in the numbering) refuses to open', async () => {
    const dir = freshDir();
    writeSync(dir, join(dir, seg(1)), twoRecords());
    writeFileSync(join(dir, seg(5)), frame(Buffer.from('e')));
    const error = await refusal(dir);
    expect(error.damage).toMatchObject({ file: join(dir, seg(5)), seq: 3 });
    expect(error.message).toMatch(/records 3\.\.4 are missing/);
  });

  it('a torn record in a segment that is not the last refuses to open', async () => {
    const dir = freshDir();
    writeSync(dir, join(dir, seg(1)), twoRecords().subarray(0, 30));
    writeFileSync(join(dir, seg(2)), frame(Buffer.from('c')));
    expect((await refusal(dir)).message).toMatch(/ends inside a record, but later segments exist/);
  });

  it('a stray file in the log directory refuses to open, naming it; a leftover cursor temp file is removed', async () => {
    const dir = freshDir();
    writeSync(dir, join(dir, seg(1)), twoRecords());
    writeFileSync(join(dir, 'indexed.json.tmp'), '{"seq":');
    writeFileSync(join(dir, 'wal-1.log'), twoRecords());
    const error = await refusal(dir);
    expect(error.damage).toMatchObject({ file: join(dir, 'wal-1.log'), salvageable: false });
    expect(readdirSync(dir).sort()).toEqual([seg(1), 'wal-1.log']);
  });

  it('an index cursor past the end of the log (records gone) refuses to open; salvage clamps it', async () => {
    const dir = freshDir();
    writeSync(dir, join(dir, seg(1)), twoRecords());
    writeFileSync(join(dir, 'indexed.json'), '{"seq":7}');
    expect((await refusal(dir)).message).toMatch(/records 3\.\.7 are missing/);
    const wal = await FileWal.open(dir, { salvageTo: `${dir}-salvaged` });
    expect(wal.indexedSeq).toBe(2);
    expect(wal.recovery.notes).toEqual(["the index cursor said 7; it now points at the log's end, 2"]);
    await wal.close();
  });

  it('an unreadable index cursor only means indexing again from the start', async () => {
    const dir = freshDir();
    writeSync(dir, join(dir, seg(1)), twoRecords());
    writeFileSync(join(dir, 'indexed.json'), '');
    const wal = await FileWal.open(dir);
    expect(wal.indexedSeq).toBe(0);
    expect(wal.recovery.notes[0]).toMatch(/indexed\.json is unreadable/);
    await wal.close();
  });
});

describe('file log appends that fail', () => {
  it('a failed fsync is cut back off the log, so the next append does not land behind a partial frame', async () => {
    const dir = freshDir();
    const wal = await FileWal.open(dir);
    await wal.append({ kind: 'write', timeMs: 1, body: Buffer.from('kept') });
    const file = join(dir, 'wal-000000000001.log');
    const size = statSync(file).size;
    // FileHandle is not exported: reach its prototype through a handle.
    const probe = await open(file, 'r');
    const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    const failing = vi
      .spyOn(proto, 'datasync')
      .mockRejectedValueOnce(Object.assign(new Error('ENOSPC: no space left'), { code: 'ENOSPC' }));
    await expect(wal.append({ kind: 'write', timeMs: 2, body: Buffer.from('lost') })).rejects.toThrow(
      /ENOSPC/,
    );
    failing.mockRestore();
    expect(statSync(file).size).toBe(size);
    expect(await wal.append({ kind: 'write', timeMs: 3, body: Buffer.from('after') })).toBe(2);
    await wal.close();
    const again = await FileWal.open(dir);
    expect((await bodiesOf(again)).map((h) => Buffer.from(h, 'hex').toString())).toEqual(['kept', 'after']);
    await again.close();
  });
});
