// Experiment 1's progress line, printed by the writer that ran the scenario's first iteration (it polls the backlog
// all the time): the phase and cell, their consistency, the backlog against the gate, time left in the cell and in
// the scenarios, and its own writes. Pure.

import { formatBytes } from '../../core/sizes';
import { formatSeconds } from '../results/run-status';
import type { Gates, PhaseName, Slot } from './phases';

export interface BacklogProgress {
  slot: Slot;
  now: number;
  /** The newest reading of index.unindexed_bytes; undefined before the first. */
  unindexedBytes: number | undefined;
  gates: Gates;
  /** While a gate is awaited: when the wait is given up (epoch ms). */
  waitDeadline: number | null;
  /** When the scenarios end (epoch ms). */
  scenariosEnd: number;
  /** This writer's acknowledged rows and failed writes so far. */
  rowsWritten: number;
  writeErrors: number;
}

/** The event a new line is printed for: the phase, the stage and the cell's consistency. */
export function progressEvent(slot: Slot): string {
  return `${slot.phase}/${slot.stage}/${slot.consistency}`;
}

function gateText(phase: PhaseName, g: Gates): string {
  if (phase === 'idle') return 'no gate';
  if (phase === 'indexing_below_limit')
    return `gate ${formatBytes(g.ltStartBytes)} to ${formatBytes(g.ltCapBytes)}`;
  return `gate >= ${formatBytes(g.gtStartBytes)}`;
}

const left = (ms: number) => formatSeconds(Math.max(0, ms) / 1000);

export function backlogProgressLine(p: BacklogProgress): string {
  const { slot, now } = p;
  const backlog = p.unindexedBytes === undefined ? 'not read yet' : formatBytes(p.unindexedBytes);
  const run = `the scenarios end in ${left(p.scenariosEnd - now)}`;
  const writes = `${p.rowsWritten} rows written${p.writeErrors > 0 ? `, ${p.writeErrors} write errors` : ''}`;
  if (slot.phase === null || slot.stage === 'done')
    return `every cell done; ${writes}; ${run} (the scenarios last their bound)`;
  const gate = gateText(slot.phase, p.gates);
  // Before t0 (setup's data plus a spare tick) the idle phase has not begun; it has no gate to wait for.
  if (slot.stage === 'waiting' && slot.phase === 'idle') return `idle: starting; backlog ${backlog}; ${run}`;
  if (slot.stage === 'waiting') {
    const giveUp = p.waitDeadline === null ? '' : `, given up in ${left(p.waitDeadline - now)}`;
    return `${slot.phase}: waiting for the ${gate}: backlog ${backlog}${giveUp}; ${writes}; ${run}`;
  }
  const cell = `${slot.phase}/${slot.consistency}`;
  let stage: string;
  if (slot.window === null) stage = 'warm-up';
  // Past the window but still in the cell: the hold that keeps a gated phase's backlog a little past its cells, so
  // VUs that saw the gate late still measure whole windows (phases.ts). Not a warm-up: nothing is measured next.
  else if (now >= slot.window.end) stage = 'measured, the phase held before the next one';
  else if (slot.stage === 'warmup')
    stage = `warm-up, measuring in ${left(slot.window.start - now)}, ${left(slot.window.end - now)} left in the cell`;
  else stage = `measuring, ${left(slot.window.end - now)} left in the cell`;
  const expected =
    slot.phase === 'indexing_above_limit' && slot.consistency === 'strong'
      ? ', 429s expected (backpressure)'
      : '';
  return `${cell}: ${stage}${expected}; backlog ${backlog} (${gate}); ${writes}; ${run}`;
}
