// Thinning of the unindexed-bytes curve so setup data (copied into every VU) and the result stay small. Pure.

/** The curve in the result keeps at most this many points. */
export const MAX_CURVE_POINTS = 120;

/** At most `max` items, evenly spaced by index, always keeping the first and the last. */
export function thin<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(items[Math.round((i * (items.length - 1)) / (max - 1))]);
  return out;
}
