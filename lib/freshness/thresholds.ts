// Experiment 3's thresholds: the issue's acceptance checks (a failure makes the run exit 99) and always-true
// expressions on every other sub-metric the result reads, because k6 puts only sub-metrics named in thresholds into
// the handleSummary data. What each band must show:
//   strong reads below the limit see every probe at the first read; above it they are refused (429);
//   eventual reads see a probe at the first read below the tail limit, never at the first read past it, and first
//   see it inside the window indexing progress predicts (within LAG_TOLERANCE_MS); no probe goes unseen, no read
//   by id finds part of a probe; eventual sampled queries never fail, strong ones only with 429 above the limit.
import { ERROR_CLASSES, queryTrendKeys, type Thresholds } from '../metric-names';
import { bucketTags, metadataSeriesThresholds, seriesClock } from '../time-series';
import { BANDS, type BandName, bandGates, scenariosDurationMs } from './bands';
import type { FreshnessConfig } from './config';
import { bandKeys, pointKeys, RESULTS, WRITERS } from './metric-keys';
import { READS, readConsistency } from './probe';

/**
 * How far an eventual read's first sighting may break the rules of ./probe.ts visibilityError: the clocks' own
 * granularity (every time is a whole-millisecond Date.now() of this VU).
 */
export const LAG_TOLERANCE_MS = 5;

const PAST_TAIL: readonly BandName[] = ['above_tail', 'above_limit'];

export function freshnessThresholds(c: FreshnessConfig): Thresholds {
  const t: Thresholds = { dropped_iterations: ['count==0'], write_errors: ['count==0'] };
  const gates = bandGates(c);
  BANDS.forEach((band, i) => {
    const k = bandKeys(band);
    const aboveLimit = band === 'above_limit';
    const pastTail = PAST_TAIL.includes(band);
    t[k.probes] = ['count>0'];
    for (const read of READS) {
      const strong = readConsistency(read) === 'strong';
      for (const result of RESULTS) t[k.firstRead(read, result)] = ['count>=0'];
      if (strong && !aboveLimit) {
        t[k.firstRead(read, 'missing')] = ['count==0'];
        t[k.firstRead(read, 'refused')] = ['count==0'];
      }
      if (strong && aboveLimit) t[k.firstRead(read, 'refused')] = ['count>0'];
      if (!strong) t[k.firstRead(read, pastTail ? 'seen' : 'missing')] = ['count==0'];
      t[k.firstRead(read, 'error')] = ['count==0'];
      t[k.neverSeen(read)] = ['count==0'];
      t[k.partial(read)] = ['count==0'];
      t[k.lag(read)] = ['max>=0'];
      if (!strong) t[k.lagError(read)] = [`max<=${LAG_TOLERANCE_MS}`, `min>=-${LAG_TOLERANCE_MS}`];
    }
    for (const consistency of ['strong', 'eventual'] as const) {
      t[k.recentRecall(consistency)] = ['max>=0'];
      t[k.recall(consistency)] = ['max>=0'];
      const q = k.queries(consistency);
      const strongAbove = aboveLimit && consistency === 'strong';
      t[q.requests] = ['count>0'];
      t[q.failed] = [strongAbove ? 'rate>=0' : 'rate==0'];
      for (const cls of ERROR_CLASSES)
        t[q.errors(cls)] = [strongAbove && cls !== '429' ? 'count==0' : 'count>=0'];
      for (const key of queryTrendKeys(q, c.load.mode)) t[key] = ['max>=0'];
    }
    for (const writer of WRITERS) t[k.writeAck(writer)] = ['max>=0'];
    const g = gates[i];
    for (const edge of ['start', 'end'] as const) {
      t[k.unindexed(edge)] =
        i === 0 ? ['value>=0'] : [`value>=${g.min}`, ...(Number.isFinite(g.max) ? [`value<=${g.max}`] : [])];
      t[k.time(edge)] = ['value>=0'];
    }
    t[k.windowStart] = ['value>=0'];
    t[k.windowEnd] = ['value>=0'];
  });
  const tags = bucketTags(seriesClock(0, scenariosDurationMs(c)));
  for (const ts of tags) {
    const p = pointKeys(ts);
    t[p.backlog] = ['value>=0'];
    for (const read of READS) t[p.lag(read)] = ['max>=0'];
  }
  return { ...t, ...metadataSeriesThresholds(tags) };
}
