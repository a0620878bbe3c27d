// How a search is cut into per-thread tasks: which segment parts a row range covers, and an even split of parts
// by estimated cost (pure).
import type { ScanPart } from './tasks';

/** A segment as the planner sees it: its id, first global row and row capacity. */
export interface SegmentSpan {
  id: number;
  start: number;
  capacity: number;
}

/** The parts of global rows [from, to), one per segment touched, in row order. */
export function rangeParts(segments: readonly SegmentSpan[], from: number, to: number): ScanPart[] {
  const parts: ScanPart[] = [];
  for (const s of segments) {
    const lo = Math.max(from, s.start);
    const hi = Math.min(to, s.start + s.capacity);
    if (hi > lo) parts.push({ seg: s.id, rowBase: s.start, from: lo - s.start, to: hi - s.start });
  }
  return parts;
}

/**
 * Cuts parts into at most `groups` lists of about equal cost, in order. Parts for which `splittable` says yes
 * (contiguous scans) may be cut at a row boundary; the others go whole to one group.
 */
export function splitByCost<T extends ScanPart>(
  parts: readonly T[],
  groups: number,
  cost: (p: T) => number,
  splittable: (p: T) => boolean,
): T[][] {
  const total = parts.reduce((s, p) => s + cost(p), 0);
  if (groups <= 1 || total === 0) return parts.length > 0 ? [[...parts]] : [];
  const target = total / groups;
  const out: T[][] = [[]];
  let budget = target;
  for (const whole of parts) {
    let p = whole;
    for (;;) {
      const c = cost(p);
      const last = out.length === groups;
      if (c <= budget || last) {
        out[out.length - 1].push(p);
        budget -= c;
        break;
      }
      if (splittable(p) && budget > 0) {
        const rows = p.to - p.from;
        const take = Math.floor((rows * budget) / c);
        if (take > 0) {
          out[out.length - 1].push({ ...p, to: p.from + take });
          p = { ...p, from: p.from + take };
        }
      } else if (budget > c / 2) {
        out[out.length - 1].push(p);
        budget -= c;
        break;
      }
      out.push([]);
      budget += target;
    }
  }
  return out.filter((g) => g.length > 0);
}
