// Ingest and drain figures from one namespace's metadata polls: the peak backlog is the largest unindexed_bytes of
// every poll (ingest and drain alike, never a thinned curve), and the drain lasts from the last acknowledged write to
// the first poll that found every row indexed, so its resolution is the poll interval. Pure.

/**
 * One metadata poll, as kept in the result: [ms since the first write, unindexed_bytes, 1 if all rows indexed,
 * approx_row_count, index.unindexed_rows] (the last two null where the target did not report them; results from
 * before the time series have only the first three).
 */
export type Poll = [
  t_ms: number,
  unindexed_bytes: number,
  indexed: 0 | 1,
  rows?: number | null,
  unindexed_rows?: number | null,
];

export interface DrainFigures {
  /** Largest unindexed_bytes over every poll; null without polls. */
  peak_unindexed_bytes: number | null;
  /** Last acknowledged write to the first indexed poll after it; null when no poll after it was indexed. */
  duration_s: number | null;
}

/** `lastAckMs` is on the polls' clock (ms since the first write). */
export function drainFigures(polls: readonly Poll[], lastAckMs: number): DrainFigures {
  let peak: number | null = null;
  for (const [, bytes] of polls) peak = peak === null ? bytes : Math.max(peak, bytes);
  const done = polls.find(([t, , indexed]) => indexed === 1 && t >= lastAckMs);
  return { peak_unindexed_bytes: peak, duration_s: done ? (done[0] - lastAckMs) / 1000 : null };
}
