// Experiment 1's phases on the shared gated phase machine (lib/phase-machine.ts): idle, then indexing below the
// backlog limit, then above it, each with a strong cell then an eventual cell; and what a writer should do. Pure.
//
//  phase:      idle                 | wait  | indexing_below_limit | wait  | indexing_above_limit | done
//  cells:  [strong C][eventual C]   |  <=T  | [strong C][eventual C]|  <=T  | [strong C][eventual C]|
//  C = W + D: the first W seconds of each cell are warm-up (tagged `transition`), then D measured seconds.
//  The gated phases are held PHASE_HOLD_MS past their cells (tagged `transition`) before the writer moves on.

import {
  advance as advanceMachine,
  type MachineSlot,
  type MachineState,
  machineDurationMs,
  slotAt as machineSlotAt,
  type PhasePlan,
  type Reading,
  type Schedule,
  TICK_MS,
} from '../phase-machine';
import type { Consistency } from '../turbopuffer-wire';
import type { BacklogConfig } from './config';

export {
  initialState,
  type MachineState,
  nextTick,
  type Reading,
  type Schedule,
  startRange,
  TICK_MS,
} from '../phase-machine';
export type { Consistency } from '../turbopuffer-wire';

export type PhaseName = 'idle' | 'indexing_below_limit' | 'indexing_above_limit';
/** The `phase` tag: a phase name inside a measured window, `transition` anywhere else. */
export type PhaseTag = PhaseName | 'transition';

export const PHASES: readonly PhaseName[] = ['idle', 'indexing_below_limit', 'indexing_above_limit'];
export const CONSISTENCIES: readonly Consistency[] = ['strong', 'eventual'];
/**
 * How long every VU stays in a phase past its cells. A query VU polls only when it iterates, QUERY_VUS/QUERY_RATE
 * seconds apart (the executor hands iterations to its VUs in turn: 2 s in the local profile), so it may see a gate
 * open a tick or two after the writer did; without the hold such a VU lost its last sample of the phase.
 */
const PHASE_HOLD_MS = 2 * TICK_MS;

/** The hold of PHASES[phase]: none for idle, whose start (t0) every VU knows exactly. */
function holdMs(phase: number): number {
  return phase === 0 ? 0 : PHASE_HOLD_MS;
}

/** Backlog gates, in bytes of `index.unindexed_bytes`. */
export interface Gates {
  ltStartBytes: number;
  ltCapBytes: number;
  gtStartBytes: number;
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

export function gateHolds(phase: PhaseName, bytes: number, g: Gates): boolean {
  if (phase === 'idle') return true;
  if (phase === 'indexing_below_limit') return bytes >= g.ltStartBytes && bytes <= g.ltCapBytes;
  return bytes >= g.gtStartBytes;
}

/** The machine's plan for these gates: three phases of two cells (strong, eventual). */
export function backlogPlan(g: Gates): PhasePlan {
  return {
    phases: PHASES.length,
    cellsPerPhase: CONSISTENCIES.length,
    holdMs,
    gateHolds: (phase, bytes) => gateHolds(PHASES[phase], bytes, g),
  };
}

/** Upper bound of the scenarios' duration: every cell plus every gate wait plus grid rounding and slack. */
export function scenarioDurationMs(s: Schedule): number {
  // The bound does not depend on the gates' values.
  return machineDurationMs(backlogPlan({ ltStartBytes: 0, ltCapBytes: 0, gtStartBytes: 0 }), s);
}

/** Moves the machine to `now`, using `reading` (if any) to open a waiting phase's gate. */
export function advance(
  state: MachineState,
  now: number,
  reading: Reading | undefined,
  s: Schedule,
  g: Gates,
): MachineState {
  return advanceMachine(backlogPlan(g), state, now, reading, s);
}

export function slotAt(state: MachineState, now: number, s: Schedule): Slot {
  // slotAt reads no gate.
  return namedSlot(
    machineSlotAt(backlogPlan({ ltStartBytes: 0, ltCapBytes: 0, gtStartBytes: 0 }), state, now, s),
  );
}

/** A machine slot under backlog's names: the phase, and the cell's consistency. */
export function namedSlot(slot: MachineSlot): Slot {
  return {
    phase: slot.phase === null ? null : PHASES[slot.phase],
    stage: slot.stage,
    consistency: slot.cell === null ? null : CONSISTENCIES[slot.cell],
    window: slot.window,
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
