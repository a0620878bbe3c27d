// Experiment 1's thresholds: the issue's acceptance checks (a failure makes the run exit 99) plus always-true
// expressions on every other per-cell sub-metric, because k6 only puts sub-metrics named in thresholds into the
// handleSummary data the result files are built from. Pure.

import type { QueryLoad } from '../common-knobs';
import { ERROR_CLASSES, queryTrendKeys, type Thresholds } from '../metric-names';
import { cellKeys } from './metric-keys';
import type { Gates, PhaseName } from './phases';
import { CONSISTENCIES, PHASES } from './phases';

export function backlogThresholds(g: Gates, mode: QueryLoad['mode']): Thresholds {
  const t: Thresholds = { dropped_iterations: ['count==0'] };
  for (const phase of PHASES) {
    for (const consistency of CONSISTENCIES) {
      const k = cellKeys(phase, consistency);
      const strongAbove = phase === 'indexing_above_limit' && consistency === 'strong';
      // Every cell is measured.
      t[k.requests] = ['count>0'];
      // Eventual reads never fail; strong reads over the backlog limit are rejected (and only with 429).
      t[k.failed] = [consistency === 'eventual' ? 'rate==0' : strongAbove ? 'rate>0' : 'rate>=0'];
      for (const cls of ERROR_CLASSES)
        t[k.errors(cls)] = [strongAbove && cls !== '429' ? 'count==0' : 'count>=0'];
      for (const key of queryTrendKeys(k, mode)) t[key] = ['max>=0'];
      for (const edge of ['start', 'end'] as const) {
        // The backlog at both window edges is inside the phase's window.
        t[k.unindexed(edge)] = backlogRule(phase, g);
        t[k.rows(edge)] = ['value>=0'];
        t[k.time(edge)] = ['value>=0'];
      }
      t[k.recall] = ['max>=0'];
      t[k.windowStart] = ['value>=0'];
      t[k.windowEnd] = ['value>=0'];
    }
  }
  return t;
}

function backlogRule(phase: PhaseName, g: Gates): string[] {
  if (phase === 'indexing_below_limit') return [`value>=${g.ltStartBytes}`, `value<=${g.ltCapBytes}`];
  if (phase === 'indexing_above_limit') return [`value>=${g.gtStartBytes}`];
  return ['value>=0'];
}
