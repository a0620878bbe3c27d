// A probe: a few rows with unique ids and vectors close to one unique centre, written beside the bulk writers and
// then read until seen, at both consistencies, by id and by ANN with the centre. What one probe's reads say (seen at
// the first read, the lag to the first read that saw it, refused, never seen), and the window in which the
// namespace's indexing progress says an eventual read should first see it. Pure.
import { hash32, rowVector } from '../vectors';

/** Probe ids start far above any bulk writer's (ids are u64; 2^40 stays exact in a JS number). */
export const PROBE_ID_BASE = 2 ** 40;

export const READS = ['strong_id', 'strong_ann', 'eventual_id', 'eventual_ann'] as const;
export type ReadKind = (typeof READS)[number];

export function readConsistency(read: ReadKind): 'strong' | 'eventual' {
  return read.startsWith('strong') ? 'strong' : 'eventual';
}

export function readMethod(read: ReadKind): 'id' | 'ann' {
  return read.endsWith('_id') ? 'id' : 'ann';
}

export function probeIds(probe: number, rows: number): number[] {
  return Array.from({ length: rows }, (_, j) => PROBE_ID_BASE + probe * rows + j);
}

/** Deviation of a probe row from its centre, per dimension: far closer to it than any other row is. */
const SPREAD = 1e-3;

/** The probe's centre (its ANN query) and its rows' vectors, all from (seed, probe). */
export function probeVectors(
  seed: number,
  probe: number,
  rows: number,
  dims: number,
): { centre: number[]; rows: number[][] } {
  const probeSeed = hash32(seed ^ 0x70726f62);
  const centre = rowVector(probeSeed, probe * (rows + 1), dims);
  const out = Array.from({ length: rows }, (_, j) => {
    const noise = rowVector(probeSeed, probe * (rows + 1) + j + 1, dims);
    return centre.map((v, i) => Math.fround(v + SPREAD * noise[i]));
  });
  return { centre, rows: out };
}

/** What one read of a probe found. */
export type ReadResult = 'seen' | 'missing' | 'refused' | 'error';

/** Whether an answer holds the probe: by id, every row (a write is atomic: some but not all is `partial`). */
export function idReadResult(
  returned: readonly (number | string)[],
  ids: readonly number[],
): ReadResult | 'partial' {
  const found = ids.filter((id) => returned.includes(id)).length;
  return found === ids.length ? 'seen' : found === 0 ? 'missing' : 'partial';
}

/** By ANN: seen when any of its rows came back; the share that did is the recall of this recent write. */
export function annReadResult(
  returned: readonly (number | string)[],
  ids: readonly number[],
): { result: ReadResult; recall: number } {
  const found = ids.filter((id) => returned.includes(id)).length;
  return { result: found > 0 ? 'seen' : 'missing', recall: found / ids.length };
}

/** One read kind's story for one probe. */
export interface ReadOutcome {
  /** The first read's result (null: never read). */
  first: ReadResult | null;
  /** When the first read that saw the probe started (epoch ms); null when none did. */
  seenAtMs: number | null;
  /** seenAtMs minus the ack; null when never seen. */
  lagMs: number | null;
  reads: number;
}

/** The reads of one probe, kind by kind, from its acknowledgement on. */
export class ProbeWatch {
  private readonly outcomes = new Map<ReadKind, ReadOutcome>();

  constructor(readonly ackMs: number) {
    for (const read of READS) this.outcomes.set(read, { first: null, seenAtMs: null, lagMs: null, reads: 0 });
  }

  record(read: ReadKind, startedAtMs: number, result: ReadResult): void {
    const o = this.outcomes.get(read) as ReadOutcome;
    if (o.seenAtMs !== null) return;
    o.reads++;
    o.first ??= result;
    if (result === 'seen') {
      o.seenAtMs = startedAtMs;
      o.lagMs = Math.max(0, startedAtMs - this.ackMs);
    }
  }

  /** The kinds still to read: not yet seen. */
  pending(): ReadKind[] {
    return READS.filter((read) => this.outcome(read).seenAtMs === null);
  }

  outcome(read: ReadKind): ReadOutcome {
    return this.outcomes.get(read) as ReadOutcome;
  }
}

/** A metadata reading as the visibility window needs it: when, and how far indexing had reached (bytes). */
export interface IndexProgress {
  time: number;
  /** approx_logical_bytes, which indexing moves: the log position the index has reached (fresh upserts only). */
  indexedBytes: number;
}

/**
 * When an eventual read should first see a probe, from the indexing progress read after its ack: an eventual read
 * searches the index plus at most `tailBytes` of the unindexed log, so the probe (ending somewhere in
 * [endLo, endHi] of the log: other writers' commits land beside it) becomes visible once the index reaches its end
 * minus the tail. Earliest: the reading before the first one past endLo - tail (the crossing came after it), or the
 * ack itself. Latest: the first reading past endHi - tail, plus one read interval for the next read to notice.
 * `latestMs` is null when no reading got that far.
 */
export function visibilityWindow(
  ackMs: number,
  endLo: number,
  endHi: number,
  tailBytes: number,
  readings: readonly IndexProgress[],
  intervalMs: number,
): { earliestMs: number; latestMs: number | null } {
  const lo = readings.findIndex((r) => r.indexedBytes >= endLo - tailBytes);
  const hi = readings.find((r) => r.indexedBytes >= endHi - tailBytes);
  const earliestMs = lo <= 0 ? ackMs : readings[lo - 1].time;
  return { earliestMs, latestMs: hi === undefined ? null : hi.time + intervalMs };
}

/** How far outside its visibility window a probe was first seen (ms; 0 inside; negative: too early). */
export function lagErrorMs(
  seenAtMs: number,
  window: { earliestMs: number; latestMs: number | null },
): number {
  if (seenAtMs < window.earliestMs) return seenAtMs - window.earliestMs;
  if (window.latestMs !== null && seenAtMs > window.latestMs) return seenAtMs - window.latestMs;
  return 0;
}
