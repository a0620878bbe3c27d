// The gated phase machine every VU runs on its own (no shared memory, so it also works under k6-operator execution
// segments): backlog readings + clock -> which phase and cell the test is in. Experiment 1 (lib/backlog/phases.ts)
// and experiment 3 (lib/freshness/bands.ts) are instances of it: each names its phases, its cells per phase and the
// backlog gate of each. Pure.
//
//  phase:      0                    | wait  | 1                     | wait  | 2                     | done
//  cells:  [cell 0][cell 1]...      |  <=T  | [cell 0][cell 1]...   |  <=T  | [cell 0][cell 1]...   |
//  each cell = W + D: the first W seconds are warm-up, then D measured seconds. Phases after the first are held
//  hold(phase) past their cells before the next wait begins.
//
// Phase 0 starts at t0 (from setup data, so every VU agrees exactly). Each later phase starts at the first whole
// second (wall-clock grid) after a reading, taken once its wait began, where its backlog gate held; VUs poll
// metadata on that grid, so VUs that saw the gate open agree on the start to within a tick.
// A VU that did not see the gate open (its iterations come VUs/rate seconds apart, or it joined late) only knows the
// start lies in [lo, hi], hi being the tick after its own first passing reading: it measures its cells from hi, so it
// never measures before it saw the gate hold. Its last window ends where the phase may end at the earliest (lo + all
// cells + hold), as does its first if need be: the hold lets a VU up to hold late measure whole windows, and a later
// one measures less rather than into the next phase.
// A phase whose gate does not hold within T (the phase timeout) is given up: its cells are not measured.

/** Metadata readings and phase starts snap to this grid. */
export const TICK_MS = 1000;

/** The phases of an experiment and their gates. */
export interface PhasePlan {
  /** How many phases, in order. */
  phases: number;
  /** Cells per phase, one after another. */
  cellsPerPhase: number;
  /** How long every VU stays in `phase` past its cells. */
  holdMs(phase: number): number;
  /** Whether a backlog of `bytes` (index.unindexed_bytes) opens `phase`'s gate; phase 0 never waits. */
  gateHolds(phase: number, bytes: number): boolean;
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
  /** The phase being waited for or measured; plan.phases when done. */
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

export interface MachineSlot {
  /** The phase being waited for or measured; null when every phase is over. */
  phase: number | null;
  stage: 'waiting' | 'warmup' | 'measuring' | 'done';
  /** The cell during warmup/measuring; null while waiting or done. */
  cell: number | null;
  /** The cell's measured window [start, end) in epoch ms (during warmup/measuring). */
  window: { start: number; end: number } | null;
}

function cellLengthMs(s: Schedule): number {
  return s.warmupMs + s.durationMs;
}

/** How long a phase lasts once its gate opened: its cells and its hold. */
function phaseLengthMs(plan: PhasePlan, s: Schedule, phase: number): number {
  return plan.cellsPerPhase * cellLengthMs(s) + plan.holdMs(phase);
}

/** Upper bound of the phases' duration: every phase plus every gate wait plus grid rounding and slack. */
export function machineDurationMs(plan: PhasePlan, s: Schedule): number {
  let total = 0;
  for (let phase = 0; phase < plan.phases; phase++) total += phaseLengthMs(plan, s, phase);
  return total + (plan.phases - 1) * s.phaseTimeoutMs + 6 * TICK_MS;
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

/** Moves the machine to `now`, using `reading` (if any) to open a waiting phase's gate. */
export function advance(
  plan: PhasePlan,
  state: MachineState,
  now: number,
  reading: Reading | undefined,
  s: Schedule,
): MachineState {
  let { phase, waitStart, lastFail, start } = state;
  const starts = [...state.starts];
  while (phase < plan.phases) {
    const length = phaseLengthMs(plan, s, phase);
    if (start === null) {
      if (reading && reading.time >= waitStart) {
        if (plan.gateHolds(phase, reading.unindexedBytes)) {
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
      if (now < start.hi + length) break;
      starts.push(start);
      waitStart = start.lo + length;
      start = null;
    }
    lastFail = null;
    phase++;
  }
  return { phase, waitStart, lastFail, start, starts };
}

export function slotAt(plan: PhasePlan, state: MachineState, now: number, s: Schedule): MachineSlot {
  if (state.phase >= plan.phases) return { phase: null, stage: 'done', cell: null, window: null };
  const phase = state.phase;
  const start = state.start;
  if (start === null || now < start.hi) return { phase, stage: 'waiting', cell: null, window: null };
  const length = cellLengthMs(s);
  const cell = Math.min(plan.cellsPerPhase - 1, Math.floor((now - start.hi) / length));
  // From this VU's own start, and never past the phase's earliest possible end (see the header).
  const window = {
    start: start.hi + cell * length + s.warmupMs,
    end: Math.min(start.hi + (cell + 1) * length, start.lo + phaseLengthMs(plan, s, phase)),
  };
  if (window.end <= window.start) return { phase, stage: 'warmup', cell, window: null };
  return {
    phase,
    stage: now >= window.start && now < window.end ? 'measuring' : 'warmup',
    cell,
    window,
  };
}
