// Runs the engine on real worker threads: the bundled dist/vector-engine.worker.js (built by the vitest globalSetup).
import { getPriority } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { threadNice } from '../process/thread-cpu';
import { createVectorColumn } from './index';
import { measureRecall } from './recall';
import { bitsetOf, clusteredVectors, randomVectors, referenceTopK, row } from './synthetic';
import { BACKGROUND_NICE, WorkerPoolExecutor } from './worker-pool';

const workerUrl = new URL('../../dist/vector-engine.worker.js', import.meta.url);

describe('worker pool executor', () => {
  let pool: WorkerPoolExecutor;
  beforeAll(() => {
    pool = new WorkerPoolExecutor({ workers: 2, workerUrl });
  });
  afterAll(async () => {
    await pool.close();
  });

  it.runIf(process.platform === 'linux')(
    'runs index builds and page commits at the lowest priority, searches at the process priority',
    async () => {
      const threads = await vi.waitFor(() => {
        const t = pool.threads();
        if (t.some((x) => x.tid === null)) throw new Error('a worker has not said its thread id yet');
        return t;
      });
      const nice = Object.fromEntries(threads.map((t) => [t.role, threadNice(t.tid as number)]));
      const processNice = getPriority(0);
      expect(nice).toEqual({
        scan_1: processNice,
        scan_2: processNice,
        indexer: BACKGROUND_NICE,
        prefault: BACKGROUND_NICE,
      });
      // The request thread itself stays where it was.
      expect(getPriority(0)).toBe(processNice);
    },
  );

  it('keeps appended rows intact while the prefaulter commits pages ahead of the append cursor', async () => {
    const dims = 200;
    const c = createVectorColumn({ dims, metric: 'euclidean_squared', threads: pool });
    const batches = Array.from({ length: 12 }, (_, i) => randomVectors(3000 + i * 97, dims, 300 + i));
    let at = 0;
    for (const b of batches) {
      expect(c.append(b)).toBe(at);
      at += b.length / dims;
      await new Promise((resolve) => setTimeout(resolve, 2)); // let the prefaulter run between appends
    }
    at = 0;
    for (const b of batches) {
      const n = b.length / dims;
      for (const r of [0, Math.floor(n / 2), n - 1]) expect(c.get(at + r)).toEqual(row(b, dims, r));
      at += n;
    }
    await c.close();
  });

  it('counts search tasks in flight for the background work that gives way to them', async () => {
    const dims = 64;
    const c = createVectorColumn({ dims, metric: 'cosine_distance', threads: pool });
    c.append(randomVectors(40_000, dims, 9));
    const search = c.scan(randomVectors(1, dims, 10), { from: 0, to: 40_000 }, { k: 5 });
    expect(pool.searches.active).toBe(pool.pieces);
    let idle = false;
    const waiting = pool.searchesIdle(60_000).then(() => {
      idle = true;
    });
    await search;
    await waiting;
    expect(idle).toBe(true);
    expect(pool.searches.active).toBe(0);
    await c.close();
  });

  it('splits exact scans across workers and returns the same rows as brute force', async () => {
    const dims = 96;
    const n = 30_000;
    const data = randomVectors(n, dims, 1);
    const c = createVectorColumn({ dims, metric: 'cosine_distance', threads: pool });
    c.append(data);
    const dead = bitsetOf([0, 1, 2, 29_999], n);
    for (let i = 0; i < 5; i++) {
      const q = randomVectors(1, dims, 50 + i);
      const { hits, stats } = await c.scan(q, { from: 1000, to: n }, { k: 10, dead });
      expect(hits.map((h) => h.row)).toEqual(
        referenceTopK(data, dims, q, 'cosine_distance', 10, 1000, n, dead).map((h) => h.row),
      );
      expect(stats.exhaustiveRows).toBe(n - 1000);
    }
    await c.close();
  });

  it('indexes on the index worker and reaches recall >= 0.9 on clustered and random data', async () => {
    for (const make of [clusteredVectors, randomVectors]) {
      const dims = 128;
      const n = 40_000;
      const data = make(n, dims, 3);
      const c = createVectorColumn({ dims, metric: 'euclidean_squared', threads: pool });
      c.append(data);
      await c.indexTo(n);
      const fresh = make(30, dims, 8);
      const report = await measureRecall(c, {
        queries: Array.from({ length: 30 }, (_, i) => row(fresh, dims, i)),
      });
      expect(report.avgRecall).toBeGreaterThanOrEqual(0.9);
      await c.close();
    }
  });

  it('queries during indexTo see the old or the new index, never a partial one', async () => {
    const dims = 32;
    const n = 60_000;
    const data = clusteredVectors(n, dims, 5);
    const c = createVectorColumn({ dims, metric: 'cosine_distance', threads: pool });
    c.append(data);
    await c.indexTo(10_000);
    const q = row(data, dims, 45_000);
    const build = c.indexTo(n);
    const seen = new Set<number>();
    let done = false;
    void build.then(() => {
      done = true;
    });
    // Bounded: at most 2000 queries while the build runs.
    for (let i = 0; i < 2000 && !done; i++) {
      const before = c.indexedRows;
      const { hits } = await c.ann(q, { k: 5 });
      seen.add(before);
      for (const h of hits) expect(h.row).toBeLessThan(Math.max(before, c.indexedRows));
      expect([10_000, n]).toContain(c.indexedRows);
    }
    await build;
    expect(c.indexedRows).toBe(n);
    expect(seen.has(10_000)).toBe(true);
    expect((await c.ann(q, { k: 1 })).hits[0].row).toBe(45_000);
    await c.close();
  });
});
