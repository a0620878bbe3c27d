// The time series' own k6 metrics (init code of every VU; names and meaning: lib/time-series.ts): a metadata poll's
// figures as gauges tagged with the poll's bucket, and the origin the VUs computed.
import { Gauge } from 'k6/metrics';
import type { MetadataReading } from './metadata-poll';
import { bucketTag, SERIES_METRIC, SERIES_TAG, type SeriesClock } from './time-series';

const pollTime = new Gauge(SERIES_METRIC.pollTime);
const unindexedBytes = new Gauge(SERIES_METRIC.unindexedBytes);
const rowCount = new Gauge(SERIES_METRIC.rowCount);
const unindexedRows = new Gauge(SERIES_METRIC.unindexedRows);

/** One poll into its bucket (a later poll in the same bucket replaces it: a gauge keeps its last value). */
export function recordPoll(clock: SeriesClock, r: MetadataReading): void {
  const tags = { [SERIES_TAG]: bucketTag(clock, r.time) };
  pollTime.add(r.time, tags);
  unindexedBytes.add(r.unindexedBytes, tags);
  rowCount.add(r.approxRowCount ?? 0, tags);
  unindexedRows.add(r.unindexedRows ?? -1, tags);
}

const origin = new Gauge(SERIES_METRIC.origin);

/** The series origin a VU computed (the same in every VU: it derives from its scenario's start). */
export function recordOrigin(originMs: number): void {
  origin.add(originMs);
}
