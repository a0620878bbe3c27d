// Which state a query reads: strong = the whole log (refused with 429 above the backlog limit, since its cost grows
// with the unindexed tail); eventual = the index plus at most --eventual-tail-limit of the tail.

import type { Consistency } from '../../lib/turbopuffer-wire';
import type { Namespace, ReadView } from '../namespace/namespace';
import { checkStrongQuery } from '../write/backpressure';

export function planView(ns: Namespace, consistency: Consistency): ReadView {
  if (consistency === 'strong') checkStrongQuery(ns.backlog);
  return ns.view(consistency);
}
