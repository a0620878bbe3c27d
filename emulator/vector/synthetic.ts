// Seeded synthetic vectors (random and clustered) and brute-force references in plain JS, for tests and benchmarks/bench-vector.ts.
import { seededRandom } from './random';
import type { DistanceMetric, Hit, RowBitset } from './types';

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
}

/** n i.i.d. Gaussian vectors (the hard case for ANN: near-ties everywhere in high dims). */
export function randomVectors(n: number, dims: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  const out = new Float32Array(n * dims);
  for (let i = 0; i < out.length; i++) out[i] = gaussian(random);
  return out;
}

/**
 * n vectors around `clusters` Gaussian centres (spread = noise relative to a centre's scale). The centres depend
 * only on `centreSeed`, so data and queries drawn with different seeds share them.
 */
export function clusteredVectors(
  n: number,
  dims: number,
  seed: number,
  clusters = 64,
  spread = 0.35,
  centreSeed = 1,
): Float32Array {
  const random = seededRandom(seed);
  const centres = randomVectors(clusters, dims, 1_000_003 * centreSeed);
  const out = new Float32Array(n * dims);
  for (let i = 0; i < n; i++) {
    const c = Math.floor(random() * clusters);
    for (let j = 0; j < dims; j++) out[i * dims + j] = centres[c * dims + j] + spread * gaussian(random);
  }
  return out;
}

/**
 * n "lowrank" vectors that behave like real embeddings (intrinsic dimension `rank`): x = A z + noise with
 * z ~ N(0, I_rank) and one fixed random A (from `basisSeed`), so neighbours are graded rather than clustered.
 */
export function lowrankVectors(
  n: number,
  dims: number,
  seed: number,
  rank = 64,
  noise = 0.5,
  basisSeed = 1,
): Float32Array {
  const random = seededRandom(seed);
  const basis = randomVectors(dims, rank, 1_000_033 * basisSeed);
  const scale = 1 / Math.sqrt(rank);
  const z = new Float64Array(rank);
  const out = new Float32Array(n * dims);
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < rank; r++) z[r] = gaussian(random);
    for (let j = 0; j < dims; j++) {
      let v = 0;
      for (let r = 0; r < rank; r++) v += basis[j * rank + r] * z[r];
      out[i * dims + j] = v * scale + noise * gaussian(random);
    }
  }
  return out;
}

export function row(data: Float32Array, dims: number, r: number): Float32Array {
  return data.subarray(r * dims, (r + 1) * dims);
}

/** Distance in double precision, as the kernels define it (cosine of a zero vector is 1). */
export function referenceDistance(a: Float32Array, b: Float32Array, metric: DistanceMetric): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  let l2 = 0;
  for (let j = 0; j < a.length; j++) {
    dot += a[j] * b[j];
    aa += a[j] * a[j];
    bb += b[j] * b[j];
    l2 += (a[j] - b[j]) ** 2;
  }
  if (metric === 'euclidean_squared') return l2;
  return aa > 0 && bb > 0 ? 1 - dot / Math.sqrt(aa * bb) : 1;
}

const bit = (set: RowBitset | undefined, r: number): boolean =>
  !!set && ((set[r >>> 5] >>> (r & 31)) & 1) === 1;

/** Exact top-k over rows [from, to) by brute force. */
export function referenceTopK(
  data: Float32Array,
  dims: number,
  query: Float32Array,
  metric: DistanceMetric,
  k: number,
  from = 0,
  to = data.length / dims,
  dead?: RowBitset,
  allow?: RowBitset,
): Hit[] {
  const hits: Hit[] = [];
  for (let r = from; r < to; r++) {
    if (bit(dead, r) || (allow && !bit(allow, r))) continue;
    hits.push({ row: r, dist: referenceDistance(row(data, dims, r), query, metric) });
  }
  return hits.sort((a, b) => a.dist - b.dist || a.row - b.row).slice(0, k);
}

export function bitsetOf(rows: Iterable<number>, size: number): RowBitset {
  const set = new Uint32Array(Math.ceil(size / 32));
  for (const r of rows) set[r >>> 5] |= 1 << (r & 31);
  return set;
}
