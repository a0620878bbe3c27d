// Seeded randomness for index builds and recall samples, so a build or a recall figure can be reproduced.

/** mulberry32: a small, fast 32-bit generator; returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
