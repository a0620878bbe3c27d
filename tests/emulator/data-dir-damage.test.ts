// --data-dir against every kind of damage a log can suffer, in-process: a torn tail is recovered exactly and
// reported; a changed byte or a bad length in the middle of a segment, stray files, and a cursor past a log that
// lost its records refuse to start, naming the file and the byte and changing nothing; --truncate-damaged-log
// salvages deliberately; names with dots survive restarts.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirError } from '../../emulator/namespace/registry';
import { FileWal } from '../../emulator/wal/file-wal';
import { HEADER_BYTES } from '../../emulator/wal/record';
import { startTestEmulator, type TestEmulator, useDataDirs } from './harness';

const dataDirs = useDataDirs('bench-damage-');
let emulator: TestEmulator | null = null;

const ROWS = 5;
const segmentOf = (dataDir: string, name: string) =>
  join(dataDir, 'namespaces', `ns-${name}`, 'wal-000000000001.log');

/** Writes `batches` batches of ROWS rows (ids batch*ROWS..) into `name`, one log record each; returns each record's start. */
async function seed(dataDir: string, name: string, batches: number): Promise<number[]> {
  emulator = await dataDirs.start({ dataDir });
  const starts: number[] = [];
  for (let b = 0; b < batches; b++) {
    starts.push(existsSync(segmentOf(dataDir, name)) ? statSync(segmentOf(dataDir, name)).size : 0);
    const ids = Array.from({ length: ROWS }, (_, i) => b * ROWS + i);
    const reply = await emulator.post(`/v2/namespaces/${name}`, {
      upsert_columns: { id: ids, vector: ids.map((i) => [i, 1]), batch: ids.map(() => b) },
      distance_metric: 'euclidean_squared',
    });
    expect(reply.status).toBe(200);
  }
  await emulator.registry.idle();
  await emulator.close();
  emulator = null;
  return starts;
}

async function rowCount(e: TestEmulator, name: string): Promise<number> {
  const reply = await e.post(`/v2/namespaces/${name}/query`, { aggregate_by: { n: ['Count'] } });
  expect(reply.status).toBe(200);
  return reply.body.aggregations.n;
}

async function refusal(dataDir: string, extra: object = {}): Promise<DataDirError> {
  const error = await startTestEmulator({ dataDir, ...extra }).then(
    async (e) => {
      await e.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataDirError);
  return error as DataDirError;
}

describe('--data-dir: log damage', () => {
  it('a torn tail is cut exactly and reported: bytes, offset, file, one incomplete record', async () => {
    const dataDir = dataDirs.tempDir();
    const starts = await seed(dataDir, 'torn', 6);
    const file = segmentOf(dataDir, 'torn');
    const bytes = readFileSync(file);
    // What a crash in the middle of appending a seventh record leaves: the first half of a frame.
    const frame = bytes.subarray(starts[5]);
    const torn = frame.subarray(0, Math.floor(frame.length / 2));
    writeFileSync(file, Buffer.concat([bytes, torn]));
    emulator = await dataDirs.start({ dataDir });
    expect(await rowCount(emulator, 'torn')).toBe(6 * ROWS);
    expect(emulator.logs).toContain(
      `namespace torn: cut a torn last record (${torn.length} bytes at byte ${bytes.length} of ${file}): ` +
        'an append a crash interrupted, never acknowledged; 1 incomplete record dropped',
    );
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a segment cut inside a record the index cursor had passed refuses to start: that record was acknowledged', async () => {
    const dataDir = dataDirs.tempDir();
    const starts = await seed(dataDir, 'cut', 6);
    truncateSync(segmentOf(dataDir, 'cut'), starts[5] + 10);
    expect((await refusal(dataDir)).message).toMatch(
      /records up to 6 were indexed, but the log ends at record 5/,
    );
  });

  it.each([
    [
      'a changed byte in the body of record 11 of 30',
      (b: Buffer, at: number) => (b[at + HEADER_BYTES + 7] ^= 0x20),
      /checksum mismatch/,
    ],
    [
      'the length of record 11 of 30 set to 2^31 - 1',
      (b: Buffer, at: number) => b.writeUInt32LE(2 ** 31 - 1, at + 4),
      /length field/,
    ],
  ])('%s refuses to start, names the file and byte, and changes nothing', async (_what, damage, reason) => {
    const dataDir = dataDirs.tempDir();
    const starts = await seed(dataDir, 'dur-6', 30);
    const file = segmentOf(dataDir, 'dur-6');
    const bytes = readFileSync(file);
    damage(bytes, starts[10]);
    writeFileSync(file, bytes);
    const error = await refusal(dataDir);
    expect(error.message).toContain(`namespace "dur-6": ${file} at byte ${starts[10]} (record 11): `);
    expect(error.message).toMatch(reason);
    expect(error.message).toContain('19 intact records follow it');
    expect(error.message).toContain('--truncate-damaged-log');
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('--truncate-damaged-log keeps the records before the damage, reports the cut, and copies the original', async () => {
    const dataDir = dataDirs.tempDir();
    const starts = await seed(dataDir, 'dur-6', 30);
    const file = segmentOf(dataDir, 'dur-6');
    const bytes = readFileSync(file);
    bytes[starts[10] + HEADER_BYTES + 7] ^= 0x20;
    writeFileSync(file, bytes);
    emulator = await dataDirs.start({ dataDir, truncateDamagedLog: true });
    expect(await rowCount(emulator, 'dur-6')).toBe(10 * ROWS);
    const line = emulator.logs.find((l) => l.includes('--truncate-damaged-log cut'));
    expect(line).toContain(
      `cut ${bytes.length - starts[10]} bytes from ${file} on (record 11 onwards, at least 19`,
    );
    const [copyDir] = readdirSync(join(dataDir, 'salvaged'));
    expect(readFileSync(join(dataDir, 'salvaged', copyDir, 'wal-000000000001.log')).equals(bytes)).toBe(true);
    await emulator.close();
    // Salvaged once: the next start is an ordinary one.
    emulator = await dataDirs.start({ dataDir });
    expect(await rowCount(emulator, 'dur-6')).toBe(10 * ROWS);
  });

  it('every damaged namespace is listed in one refusal; stray entries are named with what to do', async () => {
    const dataDir = dataDirs.tempDir();
    const starts = await seed(dataDir, 'one', 3);
    await seed(dataDir, 'two', 3);
    const bytes = readFileSync(segmentOf(dataDir, 'one'));
    bytes[starts[1] + HEADER_BYTES] ^= 1;
    writeFileSync(segmentOf(dataDir, 'one'), bytes);
    writeFileSync(join(dataDir, 'namespaces', 'ns-two', 'notes.txt'), 'hello');
    writeFileSync(join(dataDir, 'namespaces', 'backup.tar'), '');
    const error = await refusal(dataDir);
    expect(error.message.split('\n').filter((l) => l.startsWith('  - '))).toEqual([
      `  - ${join(dataDir, 'namespaces', 'backup.tar')}: not a namespace log (only ns-<name>/ directories belong here); move it out of the data directory`,
      expect.stringContaining(
        `namespace "one": ${segmentOf(dataDir, 'one')} at byte ${starts[1]} (record 2): checksum mismatch`,
      ),
      expect.stringContaining(
        `namespace "two": ${join(dataDir, 'namespaces', 'ns-two', 'notes.txt')}: this file is not part of the log`,
      ),
    ]);
  });

  it('damaged settings (read_only, pinning: acknowledged) refuse to start; an interrupted update is removed', async () => {
    const dataDir = dataDirs.tempDir();
    await seed(dataDir, 'settled', 1);
    const dir = join(dataDir, 'namespaces', 'ns-settled');
    writeFileSync(join(dir, 'settings.json.tmp'), '{"readOnly": tr');
    writeFileSync(join(dir, 'settings.json'), '{"readOnly": true, "pinning": {"replicas": 0, "since": 1}}\n');
    expect((await refusal(dataDir)).message).toContain(
      `namespace "settled": ${join(dir, 'settings.json')}: the namespace's settings (read_only, pinning) are damaged: ` +
        'expected "pinning": null or {"replicas": n >= 1, "since": epoch ms}; restore the file or remove it',
    );
    writeFileSync(join(dir, 'settings.json'), '{"readOnly": true, "pinning": null}\n');
    emulator = await startTestEmulator({ dataDir });
    expect(readdirSync(dir).sort()).toEqual(['indexed.json', 'settings.json', 'wal-000000000001.log']);
    expect((await emulator.get('/v1/namespaces/settled/metadata')).body.read_only).toBe(true);
    await emulator.close();
    emulator = null;
  });

  it('an emptied segment whose index cursor says records were indexed refuses to start', async () => {
    const dataDir = dataDirs.tempDir();
    await seed(dataDir, 'emptied', 3);
    expect(
      JSON.parse(readFileSync(join(dataDir, 'namespaces', 'ns-emptied', 'indexed.json'), 'utf8')),
    ).toEqual({ seq: 3 });
    truncateSync(segmentOf(dataDir, 'emptied'), 0);
    expect((await refusal(dataDir)).message).toMatch(/records 1\.\.3 are missing/);
  });

  it('a record that is intact but no longer applies refuses to start, naming the record, file and byte', async () => {
    const dataDir = dataDirs.tempDir();
    const starts = await seed(dataDir, 'stale', 3);
    // An acknowledged write that this emulator would refuse now: a string for the int attribute "batch".
    const wal = await FileWal.open(join(dataDir, 'namespaces', 'ns-stale'));
    const end = statSync(segmentOf(dataDir, 'stale')).size;
    await wal.append({
      kind: 'write',
      timeMs: Date.now(),
      body: Buffer.from('{"upsert_rows":[{"id":99,"batch":"x"}]}'),
    });
    await wal.close();
    expect(starts).toHaveLength(3);
    const before = readFileSync(segmentOf(dataDir, 'stale'));
    const error = await refusal(dataDir);
    expect(error.message).toContain(
      `  - namespace "stale": log record 4 (${segmentOf(dataDir, 'stale')}, frame at byte ${end}): `,
    );
    expect(error.message).toMatch(/batch/);
    expect(error.message).toMatch(
      /holds an acknowledged write that no longer applies, so starting would lose it/,
    );
    expect(readFileSync(segmentOf(dataDir, 'stale')).equals(before)).toBe(true);
  });

  it('an empty log (a first write that never completed) starts without it', async () => {
    const dataDir = dataDirs.tempDir();
    mkdirSync(join(dataDir, 'namespaces', 'ns-never'), { recursive: true });
    writeFileSync(segmentOf(dataDir, 'never'), '');
    emulator = await dataDirs.start({ dataDir });
    expect((await emulator.get('/v1/namespaces')).body.namespaces).toEqual([]);
  });
});

describe('--data-dir: names', () => {
  const names = ['keep.deleted-1', 'a.b.c', 'x..y', '-.-', '_.'];

  it('names with dots survive a restart, also next to the deletion of a namespace of a similar name', async () => {
    const dataDir = dataDirs.tempDir();
    emulator = await dataDirs.start({ dataDir });
    for (const name of [...names, 'keep'])
      expect((await emulator.post(`/v2/namespaces/${name}`, { upsert_rows: [{ id: 1, name }] })).status).toBe(
        200,
      );
    expect((await emulator.request('DELETE', '/v2/namespaces/keep')).status).toBe(200);
    await emulator.close();
    emulator = await dataDirs.start({ dataDir });
    const listed = (await emulator.get('/v1/namespaces')).body.namespaces.map((n: { id: string }) => n.id);
    expect(listed).toEqual([...names].sort());
    for (const name of names) {
      const rows = await emulator.post(`/v2/namespaces/${name}/query`, { include_attributes: ['name'] });
      expect(rows.body.rows).toEqual([{ id: 1, name }]);
    }
  });
});
