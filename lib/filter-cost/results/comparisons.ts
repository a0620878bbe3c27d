// The study's comparisons across configurations, each against a baseline measured in the same run: the baseline's
// drift (tail against head, in %), every configuration's ingest against the baselines' mean, and the storage a
// filterable attribute adds over its non-filterable twin. Pure.
import type { Configuration } from '../configurations';

export interface IngestFigures {
  name: string;
  attribute: Configuration['attribute'];
  rows_per_s: number | null;
  approx_logical_bytes: number | null;
  billable_bytes_written: number;
}

const pct = (x: number | null, base: number | null) =>
  x !== null && base ? ((x - base) / base) * 100 : null;

/** The baselines (no attribute) in run order. */
function baselines<T extends IngestFigures>(xs: readonly T[]): T[] {
  return xs.filter((x) => x.attribute === null);
}

/** Tail baseline's ingest throughput against the head's, in %; null without two baselines. */
export function driftPct(xs: readonly IngestFigures[]): number | null {
  const b = baselines(xs);
  return b.length < 2 ? null : pct(b[b.length - 1].rows_per_s, b[0].rows_per_s);
}

/** Mean ingest throughput of the baselines; null without one. */
export function baselineMean(xs: readonly IngestFigures[]): number | null {
  const rates = baselines(xs)
    .map((x) => x.rows_per_s)
    .filter((r): r is number => r !== null);
  return rates.length === 0 ? null : rates.reduce((s, r) => s + r, 0) / rates.length;
}

/** A configuration's ingest throughput against the baselines' mean, in %. */
export function vsBaselineMeanPct(x: IngestFigures, mean: number | null): number | null {
  return x.attribute === null ? null : pct(x.rows_per_s, mean);
}

export interface FilterableDelta {
  /** The filterable configuration and its `-unfiltered` twin. */
  filterable: string;
  unfiltered: string;
  /** approx_logical_bytes of the filterable one minus the twin's; null when either is unknown. */
  logical_bytes: number | null;
  /** Billable bytes written, the same way. */
  billable_bytes_written: number;
}

/** Every configuration with a `-unfiltered` twin in the run, in run order. */
export function filterableDeltas(xs: readonly IngestFigures[]): FilterableDelta[] {
  const byName = new Map(xs.map((x) => [x.name, x]));
  const out: FilterableDelta[] = [];
  for (const twin of xs) {
    if (!twin.name.endsWith('-unfiltered')) continue;
    const filterable = byName.get(twin.name.slice(0, -'-unfiltered'.length));
    if (!filterable) continue;
    const a = filterable.approx_logical_bytes;
    const b = twin.approx_logical_bytes;
    out.push({
      filterable: filterable.name,
      unfiltered: twin.name,
      logical_bytes: a !== null && b !== null ? a - b : null,
      billable_bytes_written: filterable.billable_bytes_written - twin.billable_bytes_written,
    });
  }
  return out;
}
