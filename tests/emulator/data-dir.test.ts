// --data-dir in-process: a clean restart replays every namespace (schema, documents, index progress, settings), and
// a namespace deleted and re-created at once keeps only its new life.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type TestEmulator, useDataDirs } from './harness';

const dataDirs = useDataDirs('bench-data-');
let emulator: TestEmulator | null = null;

describe('--data-dir', () => {
  it('restores schema, documents and metadata after a clean restart', async () => {
    const dataDir = dataDirs.tempDir();
    emulator = await dataDirs.start({ dataDir });
    await emulator.post('/v2/namespaces/keep', {
      upsert_rows: [{ id: 'a', vector: [1, 0], when: '2024-05-01T00:00:00Z', n: 1 }],
      distance_metric: 'euclidean_squared',
      schema: { id: 'string', when: 'datetime' },
    });
    await emulator.post('/v1/namespaces/keep/schema', { n: { type: 'int', filterable: false } });
    await emulator.registry.idle();
    const before = (await emulator.get('/v2/namespaces/keep/metadata')).body;
    await emulator.close();

    emulator = await dataDirs.start({ dataDir });
    await emulator.registry.idle();
    const after = (await emulator.get('/v2/namespaces/keep/metadata')).body;
    expect(after).toEqual(before);
    expect(after.schema.n).toEqual({ type: 'int', filterable: false });
    const rows = await emulator.post('/v2/namespaces/keep/query', {
      rank_by: ['id', 'asc'],
      include_attributes: true,
    });
    expect(rows.body.rows).toEqual([{ id: 'a', vector: [1, 0], when: '2024-05-01T00:00:00.000Z', n: 1 }]);
  });

  it('a refused first write leaves no namespace directory behind, and nothing to recover', async () => {
    const dataDir = dataDirs.tempDir();
    emulator = await dataDirs.start({ dataDir });
    const refused = await emulator.post('/v2/namespaces/never', { upsert_rows: [{ id: 1 }, { id: 1 }] });
    expect(refused.status).toBe(400);
    const root = join(dataDir, 'namespaces');
    expect(existsSync(root) ? readdirSync(root) : []).toEqual([]);
    await emulator.close();
    emulator = await dataDirs.start({ dataDir });
    expect((await emulator.get('/v1/namespaces')).body.namespaces).toEqual([]);
    expect(emulator.logs.filter((l) => l.includes('never'))).toEqual([]);
  });

  it('a namespace deleted and written again at once keeps only the new write', async () => {
    const dataDir = dataDirs.tempDir();
    emulator = await dataDirs.start({ dataDir });
    await emulator.post('/v2/namespaces/again', { upsert_rows: [{ id: 1, life: 'first' }] });
    const [deleted, written] = await Promise.all([
      emulator.request('DELETE', '/v2/namespaces/again'),
      emulator.post('/v2/namespaces/again', { upsert_rows: [{ id: 2, life: 'second' }] }),
    ]);
    expect(deleted.status).toBe(200);
    expect(written.status).toBe(200);
    await emulator.close();
    emulator = await dataDirs.start({ dataDir });
    const rows = await emulator.post('/v2/namespaces/again/query', {
      rank_by: ['id', 'asc'],
      include_attributes: ['life'],
    });
    expect(rows.body.rows).toEqual([{ id: 2, life: 'second' }]);
  });

  it('keeps read_only and pinning across a restart, with the pinning clock where it was', async () => {
    const dataDir = dataDirs.tempDir();
    emulator = await dataDirs.start({ dataDir });
    await emulator.post('/v2/namespaces/settled', { upsert_rows: [{ id: 1 }] });
    const patched = await emulator.request('PATCH', '/v1/namespaces/settled/metadata', {
      read_only: true,
      pinning: { replicas: 2 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.read_only).toBe(true);
    expect(
      JSON.parse(readFileSync(join(dataDir, 'namespaces', 'ns-settled', 'settings.json'), 'utf8')),
    ).toEqual({
      readOnly: true,
      pinning: { replicas: 2, since: expect.any(Number) },
    });
    await emulator.close();

    emulator = await dataDirs.start({ dataDir });
    const after = (await emulator.get('/v1/namespaces/settled/metadata')).body;
    expect(after.read_only).toBe(true);
    expect(after.pinning).toEqual(patched.body.pinning);
    expect((await emulator.post('/v2/namespaces/settled', { upsert_rows: [{ id: 2 }] })).status).toBe(403);

    const cleared = await emulator.request('PATCH', '/v1/namespaces/settled/metadata', {
      read_only: false,
      pinning: null,
    });
    expect(cleared.status).toBe(200);
    await emulator.close();
    emulator = await dataDirs.start({ dataDir });
    const last = (await emulator.get('/v1/namespaces/settled/metadata')).body;
    expect([last.read_only, last.pinning]).toEqual([undefined, undefined]);
    expect((await emulator.post('/v2/namespaces/settled', { upsert_rows: [{ id: 2 }] })).status).toBe(200);
  });
});
