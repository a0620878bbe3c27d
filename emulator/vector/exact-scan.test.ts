// Exact scans through the int8 bound: the same rows and distances as brute force, for both metrics, with filters,
// zero vectors, duplicate rows (ties) and a range that is only partly quantised.
import { describe, expect, it } from 'vitest';
import { createVectorColumn } from './index';
import { bitsetOf, clusteredVectors, randomVectors, referenceTopK, row } from './synthetic';
import type { DistanceMetric } from './types';

for (const metric of ['cosine_distance', 'euclidean_squared'] as DistanceMetric[]) {
  describe(`bounded exact scan (${metric})`, () => {
    for (const [name, dims, make] of [
      ['random 37-d', 37, randomVectors],
      ['clustered 200-d', 200, clusteredVectors],
    ] as const) {
      it(`${name}: equals brute force for k = 1, 10, 100, with and without filters`, async () => {
        const n = 9000;
        const data = make(n, dims, 11);
        data.fill(0, 5 * dims, 6 * dims); // a zero row
        data.copyWithin(100 * dims, 200 * dims, 201 * dims); // rows 100 and 200 are equal: ties
        const c = createVectorColumn({ dims, metric });
        c.append(data);
        await Promise.resolve(); // the in-thread executor quantises in a microtask
        const dead = bitsetOf([3, 200, 4000], n);
        const allow = bitsetOf(
          Array.from({ length: n }, (_, r) => r).filter((r) => r % 3 !== 0),
          n,
        );
        const queries = [row(data, dims, 200), ...Array.from({ length: 4 }, (_, i) => make(1, dims, 70 + i))];
        for (const q of queries) {
          for (const k of [1, 10, 100]) {
            for (const filter of [{}, { dead }, { dead, allow }]) {
              const { hits, stats } = await c.scan(q, { from: 0, to: n }, { k, ...filter });
              const want = referenceTopK(
                data,
                dims,
                q,
                metric,
                k,
                0,
                n,
                filter.dead,
                'allow' in filter ? allow : undefined,
              );
              expect(hits.map((h) => h.row)).toEqual(want.map((h) => h.row));
              for (let i = 0; i < hits.length; i++)
                expect(Math.abs(hits[i].dist - want[i].dist)).toBeLessThan(1e-4 * Math.max(1, want[i].dist));
              expect(stats.exhaustiveRows).toBe(n);
            }
          }
        }
        await c.close();
      });
    }

    it('rows dominated by one huge coordinate (loose int8 bounds) still come back exact', async () => {
      const dims = 64;
      const n = 6000;
      const data = randomVectors(n, dims, 8);
      for (let r = 0; r < n; r++) data[r * dims + (r % dims)] = 1000 * (r % 2 === 0 ? 1 : -1);
      const c = createVectorColumn({ dims, metric });
      c.append(data);
      await Promise.resolve();
      for (let i = 0; i < 3; i++) {
        const q = randomVectors(1, dims, 90 + i);
        const { hits } = await c.scan(q, { from: 0, to: n }, { k: 10 });
        expect(hits.map((h) => h.row)).toEqual(referenceTopK(data, dims, q, metric, 10).map((h) => h.row));
      }
      await c.close();
    });

    it('rows appended after the last quantisation are scanned in f32 alongside bounded ones', async () => {
      const dims = 16;
      const a = randomVectors(5000, dims, 1);
      const b = randomVectors(3000, dims, 2);
      const c = createVectorColumn({ dims, metric });
      c.append(a);
      await Promise.resolve();
      c.append(b); // scanned before its quantisation lands
      const all = new Float32Array([...a, ...b]);
      const q = randomVectors(1, dims, 3);
      const { hits } = await c.scan(q, { from: 100, to: 8000 }, { k: 20 });
      expect(hits.map((h) => h.row)).toEqual(
        referenceTopK(all, dims, q, metric, 20, 100, 8000).map((h) => h.row),
      );
      await c.close();
    });
  });
}
