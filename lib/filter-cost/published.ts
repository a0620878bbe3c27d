// The published study's figures, kept as data so every report prints them beside its own: the headline table
// (filtered p95 at 1 % per configuration against the ann_only baseline), the selectivity sweep on int@10k, and the
// numbers of its findings. Published conditions: gcp-us-central1, 2026-06-07/08, 1M x 768 random f32 vectors per fresh
// namespace, 2 query workers (closed loop), 10 s measured per cell, 0 write and 0 query errors.

export const PUBLISHED_CONDITIONS =
  'turbopuffer gcp-us-central1, 2026-06-07/08; 1M x 768 random vectors per fresh namespace; 2 closed-loop query ' +
  'workers, 10 s measured per cell and consistency';

export interface PublishedHeadlineRow {
  /** Our configuration name (`baseline` rows compare with the baseline configurations' ann_only). */
  configuration: string;
  strongP95Ms: number;
  eventualP95Ms: number;
}

/** Filtered p95 at 1 % selectivity (ann_only for the baseline). int@2 and string@2 cannot reach 1 %. */
export const PUBLISHED_HEADLINE: readonly PublishedHeadlineRow[] = [
  { configuration: 'baseline', strongP95Ms: 51.8, eventualP95Ms: 48.1 },
  { configuration: 'int-100', strongP95Ms: 61.6, eventualP95Ms: 62.4 },
  { configuration: 'int-10k', strongP95Ms: 70.5, eventualP95Ms: 73.1 },
  { configuration: 'int-100k', strongP95Ms: 65.3, eventualP95Ms: 63.9 },
  { configuration: 'int-unique', strongP95Ms: 69.1, eventualP95Ms: 67.3 },
  { configuration: 'string-100', strongP95Ms: 176.9, eventualP95Ms: 53.8 },
  { configuration: 'string-10k', strongP95Ms: 66.4, eventualP95Ms: 67.8 },
  { configuration: 'string-100k', strongP95Ms: 65.0, eventualP95Ms: 64.5 },
  { configuration: 'string-unique', strongP95Ms: 63.9, eventualP95Ms: 65.1 },
];

export interface PublishedSweepRow {
  /** Percent of rows matching, as our selectivity tags. */
  selectivity: string;
  annFilteredStrongP95Ms: number;
  filterOrderedStrongP95Ms: number;
}

/** The sweep on int@10k, strong consistency. */
export const PUBLISHED_SWEEP: readonly PublishedSweepRow[] = [
  { selectivity: '0.1', annFilteredStrongP95Ms: 57.3, filterOrderedStrongP95Ms: 50.5 },
  { selectivity: '1', annFilteredStrongP95Ms: 70.5, filterOrderedStrongP95Ms: 62.2 },
  { selectivity: '10', annFilteredStrongP95Ms: 78.9, filterOrderedStrongP95Ms: 229.9 },
  { selectivity: '50', annFilteredStrongP95Ms: 58.5, filterOrderedStrongP95Ms: 90.2 },
  { selectivity: '100', annFilteredStrongP95Ms: 53.0, filterOrderedStrongP95Ms: 127.4 },
];

const MiB = 2 ** 20;

/** The numbers behind the published findings. */
export const PUBLISHED_FINDINGS = {
  /** Ingest throughput of the tail baseline against the head one. */
  ingestDriftPct: 1.2,
  /** The slowest ingest: string@2, below the baseline mean. */
  slowestIngest: { configuration: 'string-2', belowBaselineMeanPct: 3.6 },
  /** Peak unindexed backlog over the configurations. */
  peakBacklogBytes: { min: 386 * MiB, max: Math.round(1.83 * 2 ** 30) },
  /** Storage added by declaring the attribute filterable, at 10k values over 1M rows. */
  filterableDeltaBytes: { int: Math.round(3.81 * MiB), string: Math.round(2.86 * MiB) },
  /** filter_ordered strong p95 peaked at 10 % of rows matching. */
  filterOrderedPeakSelectivity: '10',
} as const;
