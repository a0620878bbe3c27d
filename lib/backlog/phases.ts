// Experiment 1's phase machine, which every VU runs on its own (no shared memory, so it also works under
// k6-operator execution segments): backlog readings + clock -> which phase and cell the test is in, and what a
// writer should do. Pure.
//
//  phase:      idle                 | wait  | indexing_below_limit | wait  | indexing_above_limit | done
//  cells:  [strong C][eventual C]   |  <=T  | [strong C][eventual C]|  <=T  | [strong C][eventual C]|
//  C = W + D: the first W seconds of each cell are warm-up (tagged `transition`), then D measured seconds.
//  The gated phases are held PHASE_HOLD_MS past their cells (tagged `transition`) before the writer moves on.
//
// idle starts at t0 (from setup data, so every VU agrees exactly). Each later phase starts at the first whole
// second (wall-clock grid) after a reading, taken once its wait began, where its backlog gate held; VUs poll
// metadata on that grid, so VUs that saw the gate open agree on the start to within a tick.
// A VU that did not see the gate open (its iterations come VUs/rate seconds apart, or it joined late) only knows the
// start lies in [lo, hi], hi being the tick after its own first passing reading: it measures its cells from hi, so it
// never measures before it saw the gate hold. Its last window ends where the phase may end at the earliest (lo + 2C +
// hold), as does its first if need be: the hold lets a VU up to PHASE_HOLD_MS late measure whole windows (so a cell
// counts every VU's samples and its QPS is the rate sent), and a later one measures less rather than into the next phase.
// A phase whose gate does not hold within T (PHASE_TIMEOUT_S) is given up: its cells are not measured.

import type { Consistency } from '../turbopuffer-wire';
import type { BacklogConfig } from './config';

export type PhaseName = 'idle' | 'indexing_below_limit' | 'indexing_above_limit';
/** The `phase` tag: a phase name inside a measured window, `transition` anywhere else. */
export type PhaseTag = PhaseName | 'transition';

export const PHASES: readonly PhaseName[] = ['idle', 'indexing_below_limit', 'indexing_above_limit'];
export const CONSISTENCIES: readonly Consistency[] = ['strong', 'eventual'];
/** Metadata readings and phase starts snap to this grid. */
export const TICK_MS = 1000;
/**
 * How long every VU stays in a phase past its cells. A query VU polls only when it iterates, QUERY_VUS/QUERY_RATE
 * seconds apart (the executor hands iterations to its VUs in turn: 2 s in the local profile), so it may see a gate
 * open a tick or two after the writer did; without the hold such a VU lost its last sample of the phase.
 */
export const PHASE_HOLD_MS = 2 * TICK_MS;

/** The hold of PHASES[phase]: none for idle, whose start (t0) every VU knows exactly. */
export function holdMs(phase: number): number {
  return phase === 0 ? 0 : PHASE_HOLD_MS;
}

/** Backlog gates, in bytes of `index.unindexed_bytes`. */
export interface Gates {
  ltStartBytes: number;
  ltCapBytes: number;
  gtStartBytes: number;
}

export interface Schedule {
  warmupMs: number;
  durationMs: number;
  /** Longest wait for a phase's gate. */
  phaseTimeoutMs: number;
}

/** One metadata reading: when it was taken (epoch ms) and the backlog it reported. */
export interface Reading {
  time: number;
  unindexedBytes: number;
}

/** When a phase's cells start: exactly (lo == hi) or somewhere in [lo, hi] (grid ticks, epoch ms). */
export interface StartRange {
  lo: number;
  hi: number;
}

export interface MachineState {
  /** Index into PHASES of the phase being waited for or measured; PHASES.length when done. */
  phase: number;
  /** When the wait for this phase's gate began (epoch ms). */
  waitStart: number;
  /** Time of this VU's last reading, in this wait, where the gate did not hold (null: none yet). */
  lastFail: number | null;
  /** Start of this phase's cells, or null while its gate has not held. */
  start: StartRange | null;
  /** Cell starts of the phases already passed; null for a phase that was given up. */
  starts: (StartRange | null)[];
}

export interface Slot {
  /** The phase being waited for or measured; null when every phase is over. */
  phase: PhaseName | null;
  stage: 'waiting' | 'warmup' | 'measuring' | 'done';
  /** The cell's consistency during warmup/measuring; null while waiting or done. */
  consistency: Consistency | null;
  /** The cell's measured window [start, end) in epoch ms (during warmup/measuring). */
  window: { start: number; end: number } | null;
}

export function cellLengthMs(s: Schedule): number {
  return s.warmupMs + s.durationMs;
}

/** Upper bound of the scenarios' duration: every cell plus every gate wait plus grid rounding and slack. */
export function scenarioDurationMs(s: Schedule): number {
  const phases = PHASES.reduce((sum, _, phase) => sum + 2 * cellLengthMs(s) + holdMs(phase), 0);
  return phases + (PHASES.length - 1) * s.phaseTimeoutMs + 6 * TICK_MS;
}

/** The first grid tick strictly after `time`. */
export function nextTick(time: number): number {
  return (Math.floor(time / TICK_MS) + 1) * TICK_MS;
}

export function initialState(t0: number): MachineState {
  return { phase: 0, waitStart: t0, lastFail: null, start: { lo: t0, hi: t0 }, starts: [] };
}

/**
 * The start range implied by the first passing reading at `passTime`: exact when this VU's previous reading failed
 * in the tick just before; otherwise the gate may have opened in any tick after that failure (or after waitStart).
 */
export function startRange(passTime: number, lastFail: number | null, waitStart: number): StartRange {
  const failTick = lastFail === null ? Math.floor((waitStart - 1) / TICK_MS) : Math.floor(lastFail / TICK_MS);
  const hi = nextTick(passTime);
  return { lo: Math.min(hi, (failTick + 2) * TICK_MS), hi };
}

export function gateHolds(phase: PhaseName, bytes: number, g: Gates): boolean {
  if (phase === 'idle') return true;
  if (phase === 'indexing_below_limit') return bytes >= g.ltStartBytes && bytes <= g.ltCapBytes;
  return bytes >= g.gtStartBytes;
}

/** Moves the machine to `now`, using `reading` (if any) to open a waiting phase's gate. */
export function advance(
  state: MachineState,
  now: number,
  reading: Reading | undefined,
  s: Schedule,
  g: Gates,
): MachineState {
  let { phase, waitStart, lastFail, start } = state;
  const starts = [...state.starts];
  while (phase < PHASES.length) {
    const cells = 2 * cellLengthMs(s) + holdMs(phase);
    if (start === null) {
      if (reading && reading.time >= waitStart) {
        if (gateHolds(PHASES[phase], reading.unindexedBytes, g)) {
          start = startRange(reading.time, lastFail, waitStart);
          continue;
        }
        lastFail = Math.max(lastFail ?? 0, reading.time);
      }
      if (now < waitStart + s.phaseTimeoutMs) break;
      starts.push(null);
      waitStart += s.phaseTimeoutMs;
    } else {
      // The next wait may begin at the earliest possible end: its gate tells the phases apart anyway (the writer
      // keeps the backlog out of the next gate until the current phase's hold is over).
      if (now < start.hi + cells) break;
      starts.push(start);
      waitStart = start.lo + cells;
      start = null;
    }
    lastFail = null;
    phase++;
  }
  return { phase, waitStart, lastFail, start, starts };
}

export function slotAt(state: MachineState, now: number, s: Schedule): Slot {
  if (state.phase >= PHASES.length) return { phase: null, stage: 'done', consistency: null, window: null };
  const phase = PHASES[state.phase];
  const start = state.start;
  if (start === null || now < start.hi) return { phase, stage: 'waiting', consistency: null, window: null };
  const cell = cellLengthMs(s);
  const index = now - start.hi < cell ? 0 : 1;
  // From this VU's own start, and never past the phase's earliest possible end (see the header).
  const window = {
    start: start.hi + index * cell + s.warmupMs,
    end: Math.min(start.hi + (index + 1) * cell, start.lo + 2 * cell + holdMs(state.phase)),
  };
  if (window.end <= window.start)
    return { phase, stage: 'warmup', consistency: CONSISTENCIES[index], window: null };
  return {
    phase,
    stage: now >= window.start && now < window.end ? 'measuring' : 'warmup',
    consistency: CONSISTENCIES[index],
    window,
  };
}

/** The `phase` tag of a sample taken in this slot. */
export function phaseTag(slot: Slot): PhaseTag {
  return slot.stage === 'measuring' && slot.phase ? slot.phase : 'transition';
}

export type WriterAction =
  | { kind: 'wait' }
  | { kind: 'write'; disableBackpressure: boolean }
  | { kind: 'stop' };

/**
 * What a writer does next, given its estimate of the backlog (last reading plus its own writes since).
 * Below the limit it aims at three quarters of the window (pausing above); above the limit it writes with
 * disable_backpressure up to half the gap LT_CAP..GT_START beyond GT_START, so indexing cannot pull the backlog
 * under GT_START between two readings.
 */
export function writerAction(slot: Slot, estimateBytes: number, batchBytes: number, g: Gates): WriterAction {
  if (slot.stage === 'done' || slot.phase === null) return { kind: 'stop' };
  if (slot.phase === 'idle') return { kind: 'wait' };
  if (slot.phase === 'indexing_below_limit') {
    const target = g.ltStartBytes + 0.75 * (g.ltCapBytes - g.ltStartBytes);
    return estimateBytes + batchBytes <= target
      ? { kind: 'write', disableBackpressure: false }
      : { kind: 'wait' };
  }
  const target = g.gtStartBytes + 0.5 * (g.gtStartBytes - g.ltCapBytes);
  return estimateBytes + batchBytes <= target
    ? { kind: 'write', disableBackpressure: true }
    : { kind: 'wait' };
}

/** The phase machine's schedule and gates from the knobs. */
export function scheduleOf(c: BacklogConfig): Schedule {
  return {
    warmupMs: c.queryWarmupS * 1000,
    durationMs: c.queryDurationS * 1000,
    phaseTimeoutMs: c.phaseTimeoutS * 1000,
  };
}

export function gatesOf(c: BacklogConfig): Gates {
  return { ltStartBytes: c.ltStartBytes, ltCapBytes: c.ltCapBytes, gtStartBytes: c.gtStartBytes };
}
