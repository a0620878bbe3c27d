// Triangle-inequality pruning of IVF lists. Both metrics map to a true metric ("chord" length): sqrt of the squared
// euclidean distance, and for cosine the distance between unit vectors, sqrt(2 * cosine_distance). A list whose
// rows all lie within radius r of centroid c holds no row closer to q than chord(q, c) - r. The stored radius is a
// high quantile rather than the maximum (index-build.ts), so one outlier does not keep a whole list in every search:
// the bound then holds for all but the list's outermost rows.
import type { DistanceMetric } from './types';

export function chord(metric: DistanceMetric, dist: number): number {
  const d = Math.max(0, dist);
  return metric === 'cosine_distance' ? Math.sqrt(2 * d) : Math.sqrt(d);
}

/**
 * Slack on the pruning threshold: the running k-th distance comes from int8 estimates, which can undershoot the
 * exact distance a little.
 */
const ESTIMATE_SLACK = 1.05;

/** Whether a list can be skipped: even its nearest possible row is farther than the current k-th best. */
export function canSkipList(centroidChord: number, radius: number, kthChord: number): boolean {
  return centroidChord - radius > kthChord * ESTIMATE_SLACK;
}
