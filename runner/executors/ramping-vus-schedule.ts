// The ramping-vus step rule as a list of (offset, active VU count) changes (pure).
//
// Ramping up from a to b over D, VU k (a < k ≤ b) is activated at D·(k − a)/(b − a): the count is the floor of
// the linear value. Ramping down, VU k (k = a … b+1) is removed at D·(a − k + 1)/(a − b): the count is the ceiling.
// A zero-duration stage jumps at once.
import type { Stage } from './stages';

export interface VuCountChange {
  /** ms from scenario start */
  at: number;
  vus: number;
}

export function rampingVusChanges(startVUs: number, stages: Stage[]): VuCountChange[] {
  const changes: VuCountChange[] = [{ at: 0, vus: startVUs }];
  let from = startVUs;
  let t0 = 0;
  for (const { duration: D, target: to } of stages) {
    if (D === 0) {
      if (to !== from) changes.push({ at: t0, vus: to });
    } else if (to > from) {
      for (let k = from + 1; k <= to; k++) changes.push({ at: t0 + (D * (k - from)) / (to - from), vus: k });
    } else if (to < from) {
      for (let k = from; k >= to + 1; k--)
        changes.push({ at: t0 + (D * (from - k + 1)) / (from - to), vus: k - 1 });
    }
    t0 += D;
    from = to;
  }
  // Several changes at one instant collapse to the last one.
  const out: VuCountChange[] = [];
  for (const c of changes) {
    if (out.length > 0 && out[out.length - 1].at === c.at) out[out.length - 1] = c;
    else out.push(c);
  }
  return out;
}
