// Index results and tail-scan results -> one top-k list. The two may overlap (the engine can publish a new index
// while a query runs), and the index may know rows newer than an eventual view: those are dropped. Deleted and
// superseded rows never get here: both searches skip the view's dead rows.
import type { Hit } from '../vector/types';

export function mergeHits(parts: readonly (readonly Hit[])[], k: number, rowsVisible: number): Hit[] {
  const best = new Map<number, number>();
  for (const hits of parts)
    for (const hit of hits) {
      if (hit.row >= rowsVisible) continue;
      const seen = best.get(hit.row);
      if (seen === undefined || hit.dist < seen) best.set(hit.row, hit.dist);
    }
  return [...best]
    .map(([row, dist]) => ({ row, dist }))
    .sort((a, b) => a.dist - b.dist || a.row - b.row)
    .slice(0, k);
}
