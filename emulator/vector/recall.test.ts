// The recall helper behind _debug/recall.
import { describe, expect, it } from 'vitest';
import { createVectorColumn } from './index';
import { measureRecall } from './recall';
import { bitsetOf, clusteredVectors } from './synthetic';

describe('measureRecall', () => {
  it('samples stored rows, which find themselves: recall 1 and k results each on a small index', async () => {
    const dims = 16;
    const c = createVectorColumn({ dims, metric: 'cosine_distance' });
    c.append(clusteredVectors(2000, dims, 1));
    await c.indexTo(1500);
    expect(await measureRecall(c, { num: 5, k: 3 })).toEqual({
      avgRecall: 1,
      avgAnnCount: 3,
      avgExhaustiveCount: 3,
      queries: 5,
    });
    await c.close();
  });

  it('with includeTail measures index + tail scan against all rows, and honours dead rows', async () => {
    const dims = 16;
    const c = createVectorColumn({ dims, metric: 'euclidean_squared' });
    c.append(clusteredVectors(3000, dims, 2));
    await c.indexTo(1000);
    const dead = bitsetOf([0, 1, 2, 2500], 3000);
    const report = await measureRecall(c, { num: 8, k: 10, includeTail: true, dead });
    expect(report.avgRecall).toBe(1);
    expect(report.queries).toBe(8);
    expect(report.avgAnnCount).toBe(10);
    await c.close();
  });

  it('reports recall 1 and no queries when nothing is indexed yet', async () => {
    const c = createVectorColumn({ dims: 4, metric: 'cosine_distance' });
    c.append(new Float32Array(40).fill(1));
    expect(await measureRecall(c, { num: 25 })).toEqual({
      avgRecall: 1,
      avgAnnCount: 0,
      avgExhaustiveCount: 0,
      queries: 0,
    });
    await c.close();
  });
});
