// Experiment 3's bands on the shared gated phase machine (lib/phase-machine.ts): the backlog (index.unindexed_bytes)
// held idle, below the eventual tail limit, between the tail and the backlog limit, and above the limit, one
// measured window each; and what a bulk writer does to hold each band. Pure.
//
//   band:     idle      | below_tail           | above_tail                  | above_limit
//   gate:     none (t0) | [tail/4, 3 tail/4]   | [2 tail, 3 limit/4]         | >= 1.05 limit
//   writers:  none      | aim at tail/2        | aim at the gate's middle    | aim at 1.25 limit, disable_backpressure
//
// After the last band the writers stop, so the backlog drains and every probe can still be seen.
import { machineDurationMs, type PhasePlan, type Schedule, TICK_MS } from '../phase-machine';
import { rowBytes } from '../vectors';
import type { FreshnessConfig } from './config';

export const BANDS = ['idle', 'below_tail', 'above_tail', 'above_limit'] as const;
export type BandName = (typeof BANDS)[number];
/** The `band` tag: a band name inside a measured window, `transition` anywhere else. */
export type BandTag = BandName | 'transition';

/** How long every VU stays in a gated band past its window: as experiment 1's PHASE_HOLD_MS. */
const BAND_HOLD_MS = 2 * TICK_MS;

/** Each band's backlog gate [min, max] in bytes (max Infinity: no upper bound); idle has none. */
export interface BandGate {
  min: number;
  max: number;
  /** Where the writers hold the backlog inside the gate. */
  aim: number;
}

export function bandGates(c: Pick<FreshnessConfig, 'tailLimitBytes' | 'backlogLimitBytes'>): BandGate[] {
  const tail = c.tailLimitBytes;
  const limit = c.backlogLimitBytes;
  const between = { min: 2 * tail, max: 0.75 * limit };
  return [
    { min: 0, max: Number.POSITIVE_INFINITY, aim: 0 },
    { min: tail / 4, max: (3 * tail) / 4, aim: tail / 2 },
    { ...between, aim: (between.min + between.max) / 2 },
    { min: 1.05 * limit, max: Number.POSITIVE_INFINITY, aim: 1.25 * limit },
  ];
}

export function bandPlan(c: Pick<FreshnessConfig, 'tailLimitBytes' | 'backlogLimitBytes'>): PhasePlan {
  const gates = bandGates(c);
  return {
    phases: BANDS.length,
    cellsPerPhase: 1,
    holdMs: (band) => (band === 0 ? 0 : BAND_HOLD_MS),
    gateHolds: (band, bytes) => band === 0 || (bytes >= gates[band].min && bytes <= gates[band].max),
  };
}

export function bandSchedule(
  c: Pick<FreshnessConfig, 'bandWarmupS' | 'bandDurationS' | 'phaseTimeoutS'>,
): Schedule {
  return {
    warmupMs: c.bandWarmupS * 1000,
    durationMs: c.bandDurationS * 1000,
    phaseTimeoutMs: c.phaseTimeoutS * 1000,
  };
}

/** How long the bands can last at most (every window, every gate wait, grid slack), from t0. */
export function bandsDurationMs(c: FreshnessConfig): number {
  return machineDurationMs(bandPlan(c), bandSchedule(c));
}

/** The scenarios' bound from t0: the bands, then the longest a probe written at their end is read. */
export function scenariosDurationMs(c: FreshnessConfig): number {
  return bandsDurationMs(c) + c.probeTimeoutS * 1000 + 2 * TICK_MS;
}

/** Rows per bulk write in each band: at most a quarter of its gate's width, so the writers cannot jump over it. */
export function batchRowsByBand(c: FreshnessConfig): number[] {
  const row = rowBytes(c.dims);
  return bandGates(c).map((g, band) => {
    if (band === 0) return c.writeBatchRows;
    // Above the limit there is no upper bound: the room between the gate and the writers' aim.
    const width = Number.isFinite(g.max) ? g.max - g.min : g.aim - g.min;
    return Math.max(1, Math.min(c.writeBatchRows, Math.floor(width / 4 / row)));
  });
}

export type WriterAction =
  | { kind: 'wait' }
  | { kind: 'write'; disableBackpressure: boolean }
  | { kind: 'stop' };

/**
 * What a bulk writer does next while `band` is awaited or measured (null: the bands are over), given its estimate
 * of the backlog (its last reading plus its own writes since): write while a batch still fits under the band's aim.
 */
export function writerAction(
  band: number | null,
  estimateBytes: number,
  batchBytes: number,
  gates: readonly BandGate[],
): WriterAction {
  if (band === null) return { kind: 'stop' };
  if (band === 0) return { kind: 'wait' };
  if (estimateBytes + batchBytes > gates[band].aim) return { kind: 'wait' };
  return { kind: 'write', disableBackpressure: band === BANDS.length - 1 };
}

/**
 * The band a probe counts in. A probe's visibility depends on the backlog when it was written, so outside the idle
 * band's measured window (known exactly: it starts at t0) a probe counts in the band whose gate holds the backlog
 * read right after its acknowledgement, wherever the writers were; between gates it counts in none (`transition`).
 */
export function probeBand(
  c: Pick<FreshnessConfig, 'tailLimitBytes' | 'backlogLimitBytes' | 'bandWarmupS' | 'bandDurationS'>,
  t0: number,
  ackMs: number,
  backlogBytes: number,
): BandTag {
  const idleStart = t0 + c.bandWarmupS * 1000;
  if (ackMs >= idleStart && ackMs < idleStart + c.bandDurationS * 1000) return 'idle';
  const gates = bandGates(c);
  for (let band = 1; band < BANDS.length; band++)
    if (backlogBytes >= gates[band].min && backlogBytes <= gates[band].max) return BANDS[band];
  return 'transition';
}
