// The data directory filling up (ENOSPC) or turning read-only (EROFS) mid-run, injected at the log's file seam
// (emulator/wal/faults.ts) at each step of an append: writes are refused with a 503 in turbopuffer's envelope and a
// retry-after-ms (the SDKs retry it) and change nothing, reads keep answering from memory, writes succeed again as
// soon as the file system takes them, without a restart, and a restart on the same directory holds every
// acknowledged write and none of the refused ones.
import { afterEach, describe, expect, it } from 'vitest';
import { fsError, type WalFileOp, walFaults } from '../../emulator/wal/faults';
import { type TestEmulator, useDataDirs } from './harness';

const dirs = useDataDirs('bench-faults-');
afterEach(() => {
  walFaults.before = () => {};
});

const NS = '/v2/namespaces/faults';

/** Write k upserts documents 3k, 3k+1 and 3k+2 with v = k. */
const batch = (k: number) => ({ upsert_rows: [0, 1, 2].map((i) => ({ id: 3 * k + i, v: k })) });

/** Faults `code` at each of `ops` from now on; counts what it refused. */
function inject(code: 'ENOSPC' | 'EROFS', ops: WalFileOp[]): Map<WalFileOp, number> {
  const refused = new Map<WalFileOp, number>();
  walFaults.before = (op, path) => {
    if (!ops.includes(op)) return;
    refused.set(op, (refused.get(op) ?? 0) + 1);
    throw fsError(code, op, path);
  };
  return refused;
}

/** The batches a read sees, by v. */
async function batches(emulator: TestEmulator, consistency: 'strong' | 'eventual'): Promise<number[]> {
  const reply = await emulator.post(`${NS}/query`, {
    aggregate_by: { n: ['Count'] },
    group_by: ['v'],
    top_k: 10_000,
    consistency: { level: consistency },
  });
  expect(reply.status).toBe(200);
  const groups = reply.body.aggregation_groups as { v: number; n: number }[];
  for (const g of groups) expect(g.n, `batch ${g.v} is whole`).toBe(3);
  return groups.map((g) => g.v);
}

async function expectRefused(emulator: TestEmulator, k: number, code: string): Promise<void> {
  const reply = await emulator.post(NS, batch(k));
  expect(reply.status).toBe(503);
  expect(reply.headers.get('retry-after-ms')).toBe('1000');
  expect(reply.body.status).toBe('error');
  expect(reply.body.error).toMatch(
    new RegExp(`^write not accepted: the data directory refused the write \\(${code}: `),
  );
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('a full data directory (ENOSPC)', () => {
  it('refuses writes with 503 while full, keeps reads, takes writes again once space returns; 0 acknowledged lost', async () => {
    const dir = dirs.tempDir();
    let emulator = await dirs.start({ dataDir: dir });
    for (const k of range(0, 30)) expect((await emulator.post(NS, batch(k))).status).toBe(200);

    // Full before a frame is written, then full when the written frame is made durable (it is cut off again), and
    // the index cursor cannot be saved either.
    let refused = inject('ENOSPC', ['write', 'cursor', 'mkdir']);
    for (const k of range(30, 35)) await expectRefused(emulator, k, 'ENOSPC');
    expect(refused.get('write')).toBe(5);
    // A new namespace cannot be created (its directory refused), and is not left half-made.
    await expectRefusedNew(emulator);
    refused = inject('ENOSPC', ['sync', 'cursor']);
    for (const k of range(35, 40)) await expectRefused(emulator, k, 'ENOSPC');
    expect(refused.get('sync')).toBe(5);
    // Its directory made but its first write refused: dropped again.
    await expectRefusedNew(emulator);
    expect(refused.get('sync')).toBe(6);
    expect(await batches(emulator, 'strong')).toEqual(range(0, 30));
    expect(await batches(emulator, 'eventual')).toEqual(range(0, 30));
    expect((await emulator.get('/v1/namespaces/faults/metadata')).status).toBe(200);

    walFaults.before = () => {};
    for (const k of range(40, 50)) expect((await emulator.post(NS, batch(k))).status).toBe(200);
    expect(await batches(emulator, 'strong')).toEqual([...range(0, 30), ...range(40, 50)]);
    expect(emulator.logs.filter((line) => /500|indexer/.test(line))).toEqual([]);

    await emulator.close();
    emulator = await dirs.start({ dataDir: dir });
    // 40 acknowledged batches, all whole; the 10 refused ones absent; no torn tail or damage to report.
    expect(await batches(emulator, 'strong')).toEqual([...range(0, 30), ...range(40, 50)]);
    expect(emulator.logs.filter((line) => /torn|damage/.test(line))).toEqual([]);
    expect((await emulator.get('/v1/namespaces/new-one/metadata')).status).toBe(404);
  });
});

async function expectRefusedNew(emulator: TestEmulator): Promise<void> {
  const reply = await emulator.post('/v2/namespaces/new-one', batch(0));
  expect(reply.status).toBe(503);
  expect(reply.body.error).toMatch(/^write not accepted: the data directory refused the write/);
  expect((await emulator.get('/v1/namespaces/new-one/metadata')).status).toBe(404);
}

describe('a data directory that turns read-only (EROFS)', () => {
  it('refuses writes with 503 while a written frame cannot be cut off, then cuts it and goes on; 0 acknowledged lost', async () => {
    const dir = dirs.tempDir();
    let emulator = await dirs.start({ dataDir: dir });
    for (const k of range(0, 20)) expect((await emulator.post(NS, batch(k))).status).toBe(200);

    // The frame is written, fdatasync fails, and so does cutting it off: it stays pending, and every append first
    // tries the cut again (and is refused while that fails).
    const refused = inject('EROFS', ['sync', 'truncate', 'cursor', 'mkdir', 'open']);
    for (const k of range(20, 26)) await expectRefused(emulator, k, 'EROFS');
    expect(refused.get('sync')).toBe(1);
    expect(refused.get('truncate')).toBe(6);
    expect(await batches(emulator, 'strong')).toEqual(range(0, 20));
    expect(await batches(emulator, 'eventual')).toEqual(range(0, 20));
    await expectRefusedNew(emulator);

    walFaults.before = () => {};
    for (const k of range(26, 36)) expect((await emulator.post(NS, batch(k))).status).toBe(200);
    expect(await batches(emulator, 'strong')).toEqual([...range(0, 20), ...range(26, 36)]);

    await emulator.close();
    emulator = await dirs.start({ dataDir: dir });
    expect(await batches(emulator, 'strong')).toEqual([...range(0, 20), ...range(26, 36)]);
    expect(emulator.logs.filter((line) => /torn|damage/.test(line))).toEqual([]);
  });
});

describe('a data directory that refuses a settings update', () => {
  it('answers the PATCH with 503 and changes nothing; the same PATCH succeeds once space returns', async () => {
    const emulator = await dirs.start({ dataDir: dirs.tempDir() });
    try {
      expect((await emulator.post(NS, batch(0))).status).toBe(200);
      const refused = inject('ENOSPC', ['settings']);
      const patch = () => emulator.request('PATCH', '/v1/namespaces/faults/metadata', { read_only: true });
      const reply = await patch();
      expect(reply.status).toBe(503);
      expect(reply.headers.get('retry-after-ms')).toBe('1000');
      expect(reply.body.error).toMatch(
        /^write not accepted: the data directory refused the write \(ENOSPC: /,
      );
      expect(refused.get('settings')).toBe(1);
      expect((await emulator.get('/v1/namespaces/faults/metadata')).body.read_only).toBeUndefined();
      expect((await emulator.post(NS, batch(1))).status).toBe(200);
      walFaults.before = () => {};
      expect((await patch()).status).toBe(200);
      expect((await emulator.post(NS, batch(2))).status).toBe(403);
    } finally {
      await emulator.close();
    }
  });
});
