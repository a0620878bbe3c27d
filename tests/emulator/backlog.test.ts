// The behaviour experiment 1 measures: unindexed backlog in metadata, strong vs eventual reads of the tail,
// write backpressure and disable_backpressure, strong-query refusal, and the indexer's handover.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Consistency } from '../../lib/turbopuffer-wire';
import { exactFactory } from './exact-vector-column';
import { b64, startTestEmulator, type TestEmulator } from './harness';

const DIMS = 8;
/** Logical bytes of one row written below: 8 (u64 id) + 4 x 8 (vector). */
const ROW_BYTES = 8 + 4 * DIMS;

function vec(i: number): number[] {
  return Array.from({ length: DIMS }, (_, d) => Math.sin(i * 7 + d) + (d === 0 ? i / 100 : 0));
}

function columns(from: number, count: number) {
  const ids = Array.from({ length: count }, (_, k) => from + k);
  return { id: ids, vector: ids.map((i) => b64(vec(i))) };
}

let emulator: TestEmulator | null = null;
let releaseHeld: (() => void) | null = null;
afterEach(async () => {
  releaseHeld?.();
  await emulator?.close();
  emulator = null;
});

/** An emulator whose indexer is held until release() (the engine does not publish). */
async function heldEmulator(overrides = {}) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  releaseHeld = release;
  const engine = exactFactory({ beforePublish: () => gate });
  emulator = await startTestEmulator(
    { backlogLimitBytes: 60 * ROW_BYTES, eventualTailLimitBytes: 15 * ROW_BYTES, ...overrides },
    engine.factory,
  );
  return { emulator, release, engine };
}

const ann = (level: Consistency, top = 100) => ({
  rank_by: ['vector', 'ANN', vec(0)],
  top_k: top,
  consistency: { level },
});

describe('unindexed backlog', () => {
  it('metadata reports updating with unindexed_bytes, and approx_* only change once indexed', async () => {
    const { emulator: e, release } = await heldEmulator();
    const write = await e.post('/v2/namespaces/b', {
      upsert_columns: columns(0, 10),
      distance_metric: 'cosine_distance',
    });
    expect(write.status).toBe(200);
    expect(write.body.rows_upserted).toBe(10);
    expect(write.body.billing.billable_logical_bytes_written).toBe(10 * ROW_BYTES);
    const before = await e.get('/v2/namespaces/b/metadata');
    expect(before.body.index).toEqual({
      status: 'updating',
      unindexed_bytes: 10 * ROW_BYTES,
      unindexed_rows: 10,
    });
    expect(before.body.approx_row_count).toBe(0);
    expect(before.body.approx_logical_bytes).toBe(0);
    release();
    await e.registry.idle();
    const after = await e.get('/v1/namespaces/b/metadata');
    expect(after.body.index).toEqual({ status: 'up-to-date' });
    expect(after.body.approx_row_count).toBe(10);
    expect(after.body.approx_logical_bytes).toBe(10 * ROW_BYTES);
  });

  it('strong queries scan the whole tail; eventual ones stop at the last whole write within the tail limit', async () => {
    const { emulator: e } = await heldEmulator();
    await e.post('/v2/namespaces/b', { upsert_columns: columns(0, 10), distance_metric: 'cosine_distance' });
    await e.post('/v2/namespaces/b', { upsert_columns: columns(10, 10) });
    const strong = await e.post('/v2/namespaces/b/query', ann('strong'));
    expect(strong.body.rows).toHaveLength(20);
    expect(strong.body.performance.exhaustive_search_count).toBe(20);
    // approx_namespace_size counts the documents the query's view holds, indexed or not.
    expect(strong.body.performance.approx_namespace_size).toBe(20);
    // 20 rows = 800 bytes > 15-row tail limit: eventual sees only the first write (10 rows).
    const eventual = await e.post('/v2/namespaces/b/query', ann('eventual'));
    expect(eventual.body.performance.exhaustive_search_count).toBe(10);
    expect(eventual.body.performance.approx_namespace_size).toBe(10);
    expect(eventual.body.rows.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, i) => i),
    );
  });

  it('eventual reads see the old version of a document updated or deleted beyond their horizon', async () => {
    const { emulator: e } = await heldEmulator();
    await e.post('/v2/namespaces/b', {
      upsert_rows: [
        { id: 1, vector: vec(1), tag: 'old' },
        { id: 2, vector: vec(2), tag: 'old' },
      ],
      distance_metric: 'cosine_distance',
    });
    await e.post('/v2/namespaces/b', { upsert_columns: columns(100, 20) });
    await e.post('/v2/namespaces/b', { upsert_rows: [{ id: 1, vector: vec(1), tag: 'new' }], deletes: [2] });
    const lookup = (level: string) => ({
      filters: ['id', 'In', [1, 2]],
      include_attributes: ['tag'],
      consistency: { level },
    });
    const strong = await e.post('/v2/namespaces/b/query', lookup('strong'));
    expect(strong.body.rows).toEqual([{ id: 1, tag: 'new' }]);
    const eventual = await e.post('/v2/namespaces/b/query', lookup('eventual'));
    expect(eventual.body.rows).toEqual([
      { id: 1, tag: 'old' },
      { id: 2, tag: 'old' },
    ]);
  });

  it.each([
    [0, '10000'],
    [1000 * ROW_BYTES, '100'],
  ])(
    'the retry hint of a 429 follows the pace, unpaced inside --index-burst (burst %d bytes: %s ms)',
    async (burst, hint) => {
      const { emulator: e } = await heldEmulator({ indexBytesPerSecond: 1, indexBurstBytes: burst });
      for (let w = 0; w < 7; w++) {
        const body = { upsert_columns: columns(w * 10, 10), distance_metric: 'cosine_distance' };
        expect((await e.post('/v2/namespaces/b', body)).status).toBe(200);
      }
      const refused = await e.post('/v2/namespaces/b', { upsert_columns: columns(100, 1) });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after-ms')).toBe(hint);
      const strong = await e.post('/v2/namespaces/b/query', ann('strong', 5));
      expect(strong.headers.get('retry-after-ms')).toBe(hint);
    },
  );

  it('after a restart the retry hint is unpaced while the part indexed before it is indexed again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-backlog-restart-'));
    try {
      // First life, unpaced: seven writes of 10 rows, all indexed (the log records how far).
      emulator = await startTestEmulator({ dataDir, backlogLimitBytes: 60 * ROW_BYTES });
      for (let w = 0; w < 7; w++) {
        const body = { upsert_columns: columns(w * 10, 10), distance_metric: 'cosine_distance' };
        expect((await emulator.post('/v2/namespaces/b', body)).status).toBe(200);
      }
      for (let i = 0; i < 200; i++) {
        if ((await emulator.get('/v2/namespaces/b/metadata')).body.index.status === 'up-to-date') break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await emulator.close();
      emulator = null;
      // Second life at 1 byte/s with the indexer held: the whole log is backlog again, but all of it was indexed
      // before the restart and is indexed again unpaced, so the hint is the unpaced one (as inside a burst, above).
      const { emulator: e } = await heldEmulator({ dataDir, indexBytesPerSecond: 1 });
      const refused = await e.post('/v2/namespaces/b', { upsert_columns: columns(100, 1) });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after-ms')).toBe('100');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('over the backlog limit: writes get 429 unless disable_backpressure applies, strong queries get 429', async () => {
    const { emulator: e, release } = await heldEmulator();
    // Seven writes of 10 rows: the check happens before each write, so the 7th (at exactly the limit) passes.
    await e.post('/v2/namespaces/b', { upsert_columns: columns(0, 10), distance_metric: 'cosine_distance' });
    for (let w = 1; w < 7; w++)
      expect((await e.post('/v2/namespaces/b', { upsert_columns: columns(w * 10, 10) })).status).toBe(200);
    const refused = await e.post('/v2/namespaces/b', { upsert_columns: columns(100, 1) });
    expect(refused.status).toBe(429);
    expect(refused.body.status).toBe('error');
    expect(Number(refused.headers.get('retry-after-ms'))).toBeGreaterThan(0);
    const bypass = await e.post('/v2/namespaces/b', {
      upsert_columns: columns(100, 1),
      disable_backpressure: true,
    });
    expect(bypass.status).toBe(200);
    const deleteBypass = await e.post('/v2/namespaces/b', { deletes: [100], disable_backpressure: true });
    expect(deleteBypass.status).toBe(200);
    // Patches need a consistent read: disable_backpressure does not apply to them.
    const patch = await e.post('/v2/namespaces/b', {
      patch_rows: [{ id: 1, x: 1 }],
      disable_backpressure: true,
    });
    expect(patch.status).toBe(429);
    const strong = await e.post('/v2/namespaces/b/query', ann('strong', 5));
    expect(strong.status).toBe(429);
    expect(strong.headers.get('retry-after-ms')).not.toBeNull();
    const eventual = await e.post('/v2/namespaces/b/query', ann('eventual', 5));
    expect(eventual.status).toBe(200);
    expect(eventual.body.rows).toHaveLength(5);
    release();
    await e.registry.idle();
    expect((await e.post('/v2/namespaces/b', { upsert_columns: columns(200, 1) })).status).toBe(200);
    expect((await e.post('/v2/namespaces/b/query', ann('strong', 5))).status).toBe(200);
  });
});

describe('indexer handover', () => {
  it('queries during a publish return each document once, and the tail shrinks to nothing', async () => {
    const { emulator: e, release, engine } = await heldEmulator();
    await e.post('/v2/namespaces/h', {
      upsert_columns: columns(0, 12),
      distance_metric: 'euclidean_squared',
    });
    const before = await e.post('/v2/namespaces/h/query', ann('strong'));
    // The engine publishes its index before the namespace moves its cursor: both paths then cover the same rows.
    const column = engine.columns[0];
    column.indexedRows = 12;
    const during = await e.post('/v2/namespaces/h/query', ann('strong'));
    expect(during.body.rows).toEqual(before.body.rows);
    release();
    await e.registry.idle();
    const after = await e.post('/v2/namespaces/h/query', ann('strong'));
    expect(after.body.rows).toEqual(before.body.rows);
    expect(after.body.performance.exhaustive_search_count).toBe(0);
  });

  it('paces indexing: at 800 bytes/s a 400-byte backlog drains over several batches, not in one', async () => {
    emulator = await startTestEmulator({ indexBytesPerSecond: 20 * ROW_BYTES });
    await emulator.post('/v2/namespaces/p', {
      upsert_columns: columns(0, 10),
      distance_metric: 'cosine_distance',
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    const mid = await emulator.get('/v2/namespaces/p/metadata');
    expect(mid.body.index.status).toBe('updating');
    expect(mid.body.index.unindexed_bytes).toBeLessThan(10 * ROW_BYTES);
    expect(mid.body.index.unindexed_bytes).toBeGreaterThan(0);
    await emulator.registry.idle();
    expect((await emulator.get('/v2/namespaces/p/metadata')).body.index.status).toBe('up-to-date');
  });
});
