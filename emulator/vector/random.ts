// Seeded randomness for index builds, recall samples and generated data, so a build or a figure can be reproduced.
import { mulberry32 } from '../../lib/vectors';

/** lib's mulberry32 as floats in [0, 1) (Math.random's range), so code written for Math.random takes it as is. */
export function seededRandom(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

/** `count` distinct integers from [0, n) in random order (partial Fisher-Yates). */
export function sampleDistinct(n: number, count: number, random: () => number): Uint32Array {
  const m = Math.min(n, count);
  const pool = new Uint32Array(n);
  for (let i = 0; i < n; i++) pool[i] = i;
  for (let i = 0; i < m; i++) {
    const j = i + Math.floor(random() * (n - i));
    const t = pool[i];
    pool[i] = pool[j];
    pool[j] = t;
  }
  return pool.slice(0, m);
}
