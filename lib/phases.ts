// The phase machine every VU runs on its own (no shared memory, so it also works under k6-operator execution
// segments): backlog readings + clock -> which phase and cell the test is in, and what a writer should do. Pure.
//
//  phase:      idle                 | wait  | indexing_below_limit | wait  | indexing_above_limit | done
//  cells:  [strong C][eventual C]   |  <=T  | [strong C][eventual C]|  <=T  | [strong C][eventual C]|
//  C = W + D: the first W seconds of each cell are warm-up (tagged `transition`), then D measured seconds.
//
// idle starts at t0 (from setup data, so every VU agrees exactly). Each later phase starts at the first whole
// second (wall-clock grid) after a reading, taken once its wait began, where its backlog gate held; VUs poll
// metadata on that grid, so they see nearly the same readings and agree on the start to within a tick.
// A phase whose gate does not hold within T (PHASE_TIMEOUT_S) is given up: its cells are not measured.

export type PhaseName = 'idle' | 'indexing_below_limit' | 'indexing_above_limit';
export type Consistency = 'strong' | 'eventual';
/** The `phase` tag: a phase name inside a measured window, `transition` anywhere else. */
export type PhaseTag = PhaseName | 'transition';

export const PHASES: readonly PhaseName[] = ['idle', 'indexing_below_limit', 'indexing_above_limit'];
export const CONSISTENCIES: readonly Consistency[] = ['strong', 'eventual'];
/** Metadata readings and phase starts snap to this grid. */
export const TICK_MS = 1000;

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

export interface MachineState {
  /** Index into PHASES of the phase being waited for or measured; PHASES.length when done. */
  phase: number;
  /** When the wait for this phase's gate began (epoch ms). */
  waitStart: number;
  /** Start of this phase's cells (a grid tick), or null while its gate has not held. */
  start: number | null;
  /** Cell starts of the phases already passed; null for a phase that was given up. */
  starts: (number | null)[];
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
  return PHASES.length * 2 * cellLengthMs(s) + (PHASES.length - 1) * s.phaseTimeoutMs + 6 * TICK_MS;
}

/** The first grid tick strictly after `time`. */
export function nextTick(time: number): number {
  return (Math.floor(time / TICK_MS) + 1) * TICK_MS;
}

export function initialState(t0: number): MachineState {
  return { phase: 0, waitStart: t0, start: t0, starts: [] };
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
  let { phase, waitStart, start } = state;
  const starts = [...state.starts];
  const cells = 2 * cellLengthMs(s);
  while (phase < PHASES.length) {
    if (start === null) {
      if (reading && reading.time >= waitStart && gateHolds(PHASES[phase], reading.unindexedBytes, g)) {
        start = nextTick(reading.time);
        continue;
      }
      if (now < waitStart + s.phaseTimeoutMs) break;
      starts.push(null);
      waitStart += s.phaseTimeoutMs;
    } else {
      if (now < start + cells) break;
      starts.push(start);
      waitStart = start + cells;
      start = null;
    }
    phase++;
  }
  return { phase, waitStart, start, starts };
}

export function slotAt(state: MachineState, now: number, s: Schedule): Slot {
  if (state.phase >= PHASES.length) return { phase: null, stage: 'done', consistency: null, window: null };
  const phase = PHASES[state.phase];
  if (state.start === null || now < state.start)
    return { phase, stage: 'waiting', consistency: null, window: null };
  const cell = cellLengthMs(s);
  const index = now - state.start < cell ? 0 : 1;
  const cellStart = state.start + index * cell;
  const window = { start: cellStart + s.warmupMs, end: cellStart + cell };
  return {
    phase,
    stage: now < window.start ? 'warmup' : 'measuring',
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
