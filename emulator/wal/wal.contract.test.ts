// One contract for both log backends (numbering, ordering under concurrent appends, the indexed cursor, close),
// then what only the file log promises: replay after reopen, torn-tail repair, refusal of damage, destroy.
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileWal, WalCorruptError } from './file-wal';
import { MemoryWal } from './memory-wal';
import { crc32 } from './record';
import type { WalRecord, WriteAheadLog } from './wal';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wal-'));
  dirs.push(dir);
  return dir;
}

const record = (text: string, timeMs = 1): WalRecord => ({ kind: 'write', timeMs, body: Buffer.from(text) });

async function collect(wal: WriteAheadLog): Promise<[number, string][]> {
  const out: [number, string][] = [];
  for await (const { seq, record } of wal.replay()) out.push([seq, record.body.toString()]);
  return out;
}

const backends: [string, () => Promise<WriteAheadLog>][] = [
  ['memory', async () => new MemoryWal()],
  ['file', async () => FileWal.open(join(tempDir(), 'ns'))],
];

describe.each(backends)('%s log (contract)', (_name, open) => {
  it('numbers appends 1, 2, 3 in call order, also when they overlap', async () => {
    const wal = await open();
    const seqs = await Promise.all(['a', 'b', 'c'].map((t) => wal.append(record(t))));
    expect(seqs).toEqual([1, 2, 3]);
    expect(wal.lastSeq).toBe(3);
    await wal.close();
  });

  it('keeps the indexed cursor monotonic and within the log', async () => {
    const wal = await open();
    await wal.append(record('a'));
    await wal.append(record('b'));
    await wal.markIndexed(1);
    await wal.markIndexed(0);
    expect(wal.indexedSeq).toBe(1);
    await wal.markIndexed(99);
    expect(wal.indexedSeq).toBe(2);
    await wal.close();
  });

  it('refuses appends after close', async () => {
    const wal = await open();
    await wal.close();
    await expect(wal.append(record('late'))).rejects.toThrow(/closed/);
  });
});

describe('file log', () => {
  it('replays every record in order after reopening, with kind, time and body intact', async () => {
    const dir = join(tempDir(), 'ns');
    const wal = await FileWal.open(dir);
    await wal.append(record('first', 111));
    await wal.append({ kind: 'schema', timeMs: 222, body: Buffer.from('{"x":"int"}') });
    await wal.markIndexed(1);
    await wal.close();
    const again = await FileWal.open(dir);
    expect(again.lastSeq).toBe(2);
    expect(again.indexedSeq).toBe(1);
    const records: WalRecord[] = [];
    for await (const r of again.replay()) records.push(r.record);
    expect(records.map((r) => [r.kind, r.timeMs, r.body.toString()])).toEqual([
      ['write', 111, 'first'],
      ['schema', 222, '{"x":"int"}'],
    ]);
    expect(await again.append(record('third'))).toBe(3);
    await again.close();
  });

  it.each([
    [
      'a half-written header after two records',
      2,
      (file: string) => appendFileSync(file, Buffer.from([0x54, 0x57])),
    ],
    ['the second record cut short', 1, (file: string, size: number) => truncateSync(file, size - 3)],
  ])('cuts off %s (keeps %i)', async (_what, kept, damage) => {
    const dir = join(tempDir(), 'ns');
    const wal = await FileWal.open(dir);
    await wal.append(record('kept'));
    await wal.append(record('torn-record'));
    await wal.close();
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.log')) as string);
    damage(file, statSync(file).size);
    const again = await FileWal.open(dir);
    const replayed = await collect(again);
    expect(replayed[0]).toEqual([1, 'kept']);
    expect(replayed.length).toBe(kept);
    // The repaired log appends right after the last good record.
    const next = await again.append(record('after'));
    expect((await collect(again)).at(-1)).toEqual([next, 'after']);
    await again.close();
  });

  it('refuses a damaged record that is not at the end', async () => {
    const dir = join(tempDir(), 'ns');
    const wal = await FileWal.open(dir);
    await wal.append(record('one'));
    await wal.close();
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.log')) as string);
    // A second, later segment makes the first one "not last".
    writeFileSync(join(dir, 'wal-000000000002.log'), '');
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(file, bytes);
    await expect(FileWal.open(dir)).rejects.toBeInstanceOf(WalCorruptError);
  });

  it('destroy removes the log directory', async () => {
    const dir = join(tempDir(), 'ns');
    const wal = await FileWal.open(dir);
    await wal.append(record('x'));
    await wal.destroy();
    expect(existsSync(dir)).toBe(false);
  });

  it('checksums match the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });
});
