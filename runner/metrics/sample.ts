// One metric sample as every part of the runner passes it around, and its time unit.

/** Epoch milliseconds with sub-millisecond precision (performance.timeOrigin + performance.now()). */
type EpochMs = number;

/** True when a tag or metadata record has no key (no array of keys allocated: this runs for every sample). */
export function isEmptyRecord(record: Readonly<Record<string, string>>): boolean {
  for (const _ in record) return false;
  return true;
}

/** One metric sample, as every part of the runner passes it around. Tag values are always strings. */
export interface SampleInput {
  metric: string;
  time: EpochMs;
  value: number;
  tags: Readonly<Record<string, string>>;
  /** High-cardinality values (`vu`, `iter` system tags, exec.vu.metrics.metadata): outputs only, never thresholds. */
  metadata?: Record<string, string>;
}
