// Index builds on one segment: the adaptive IVF rule (flat for random data, lists for clustered) and the list layout.
import { describe, expect, it } from 'vitest';
import { buildIvf, checkK, IVF_MIN_ROWS, listCount, MAX_PROBE_SHARE, runIndexJob } from './index-build';
import { segmentLayout } from './layout';
import { allocateSegmentMemory, type SegmentRuntime, segmentRuntime } from './segment-runtime';
import { clusteredVectors, randomVectors } from './synthetic';
import type { DistanceMetric } from './types';

function segmentWith(data: Float32Array, dims: number): SegmentRuntime {
  const rows = data.length / dims;
  const layout = segmentLayout(dims, rows, 1);
  const rt = segmentRuntime(allocateSegmentMemory(layout), layout);
  rt.f32.set(data, layout.vectors >> 2);
  return rt;
}

function indexAll(rt: SegmentRuntime, metric: DistanceMetric) {
  return runIndexJob(
    {
      kind: 'index',
      metric,
      segments: [{ seg: 1, quantizeFrom: 0, quantizeTo: rt.layout.capacity, buildIvf: true, seed: 7 }],
    },
    () => rt,
    0,
  ).built[0];
}

describe('the adaptive IVF rule', () => {
  const rows = IVF_MIN_ROWS;
  it('scans i.i.d. random 256-d vectors flat: no list count reaches recall 0.95 cheaply', () => {
    const rt = segmentWith(randomVectors(rows, 256, 1), 256);
    expect(indexAll(rt, 'cosine_distance')).toEqual({ seg: 1, lists: 0, nprobe: 0 });
  });

  for (const metric of ['cosine_distance', 'euclidean_squared'] as DistanceMetric[]) {
    it(`clusters clustered vectors (${metric}) and lays every row out in exactly one list`, () => {
      const rt = segmentWith(clusteredVectors(rows, 64, 2), 64);
      const decision = indexAll(rt, metric);
      expect(decision.lists).toBe(listCount(rows));
      expect(decision.nprobe).toBeGreaterThanOrEqual(1);
      expect(decision.nprobe).toBeLessThanOrEqual(decision.lists * MAX_PROBE_SHARE);
      const { layout, u32, f32 } = rt;
      const offsets = Array.from(
        u32.subarray(layout.listOffsets >> 2, (layout.listOffsets >> 2) + decision.lists + 1),
      );
      expect(offsets[0]).toBe(0);
      expect(offsets[decision.lists]).toBe(rows);
      for (let l = 0; l < decision.lists; l++) expect(offsets[l + 1]).toBeGreaterThanOrEqual(offsets[l]);
      const ids = Array.from(u32.subarray(layout.ids >> 2, (layout.ids >> 2) + rows)).sort((a, b) => a - b);
      expect(ids).toEqual(Array.from({ length: rows }, (_, i) => i));
      for (let l = 0; l < decision.lists; l++) expect(f32[(layout.radii >> 2) + l]).toBeGreaterThanOrEqual(0);
    });
  }

  it('checks recall at the neighbour rank the sample density implies', () => {
    expect(checkK(4096, 65_536)).toBe(1);
    expect(checkK(4096, 16_384)).toBe(3);
    expect(checkK(4096, 4096)).toBe(10);
    expect(checkK(10, 1_000_000)).toBe(1);
  });

  it('clusters data with far more clusters than lists (1,000 tight clusters in one segment)', () => {
    const rt = segmentWith(clusteredVectors(rows, 64, 4, 1000, 0.3), 64);
    const decision = indexAll(rt, 'cosine_distance');
    expect(decision.lists).toBe(listCount(rows));
    expect(decision.nprobe).toBeLessThanOrEqual(decision.lists * MAX_PROBE_SHARE);
  });

  it('never builds an IVF for a segment below IVF_MIN_ROWS', () => {
    const rt = segmentWith(clusteredVectors(4096, 16, 3), 16);
    expect(buildIvf(rt, 'cosine_distance', 1, 0)).toEqual({ lists: 0, nprobe: 0 });
  });
});
