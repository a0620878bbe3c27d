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

/** One read: when it was sent and answered (epoch ms), and what it found. */
export interface Read {
  startMs: number;
  endMs: number;
  result: ReadResult;
}

/** One read kind's story for one probe. */
export interface ReadOutcome {
  /** The first read's result (null: never read). */
  first: ReadResult | null;
  /** When the first read that saw the probe started (epoch ms); null when none did. */
  seenAtMs: number | null;
  /** seenAtMs minus the ack; null when never seen. */
  lagMs: number | null;
  /** Every read of this kind, up to the first that saw the probe. */
  reads: Read[];
}

/** The reads of one probe, kind by kind, from its acknowledgement on. */
export class ProbeWatch {
  private readonly outcomes = new Map<ReadKind, ReadOutcome>();

  constructor(readonly ackMs: number) {
    for (const read of READS)
      this.outcomes.set(read, { first: null, seenAtMs: null, lagMs: null, reads: [] });
  }

  record(read: ReadKind, startMs: number, endMs: number, result: ReadResult): void {
    const o = this.outcomes.get(read) as ReadOutcome;
    if (o.seenAtMs !== null) return;
    o.reads.push({ startMs, endMs, result });
    o.first ??= result;
    if (result === 'seen') {
      o.seenAtMs = startMs;
      o.lagMs = Math.max(0, startMs - this.ackMs);
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

/** A metadata reading as the visibility check needs it: when it arrived, and how far indexing had reached. */
export interface IndexProgress {
  time: number;
  /** approx_logical_bytes, which indexing moves: the log position the index has reached (fresh upserts only). */
  indexedBytes: number;
}

/**
 * Whether an eventual read saw a probe exactly when indexing progress says it could. An eventual read searches the
 * index plus at most `tailBytes` of the unindexed log, so the probe (ending somewhere in [endLo, endHi] of the log:
 * other writers' commits land beside it) becomes visible once the index reaches its end minus the tail, and the
 * index only moves forward. So:
 *   - a read that started after a reading showing the index past endHi + slack - tail must see it;
 *   - a read that ended before the last reading not yet past endLo - slack - tail cannot have seen it;
 * where slack is the largest log entry: approx_logical_bytes counts whole entries while the index may stand inside
 * one, so it lags the index, and the log's end read as approx_logical_bytes + unindexed_bytes by as much.
 * Returns how far the first sighting broke either rule (ms: positive, seen that much later than the first read that
 * had to see it; negative, seen that much before it could be visible), 0 when it broke neither.
 */
export function visibilityError(
  reads: readonly Read[],
  endLo: number,
  endHi: number,
  tailBytes: number,
  progress: readonly IndexProgress[],
  slackBytes: number,
): number {
  const seen = reads.find((r) => r.result === 'seen');
  if (!seen) return 0;
  const mustSee = progress.find((p) => p.indexedBytes >= endHi + slackBytes - tailBytes);
  const firstBound = mustSee ? reads.find((r) => r.startMs >= mustSee.time) : undefined;
  if (firstBound && seen.startMs > firstBound.startMs) return seen.startMs - firstBound.startMs;
  const notYet = progress.filter((p) => p.indexedBytes < endLo - tailBytes - slackBytes).pop();
  if (notYet && seen.endMs < notYet.time) return seen.endMs - notYet.time;
  return 0;
}
