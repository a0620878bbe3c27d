// Experiment 3's progress line, printed by the bulk writer that ran the scenario's first iteration (it polls the
// backlog all the time): the band, its stage, the backlog against the band's gate, time left, and its own writes.
// Pure.
import { formatBytes } from '../../core/sizes';
import type { MachineSlot } from '../phase-machine';
import { formatSeconds } from '../results/run-status';
import { BANDS, type BandGate } from './bands';

export interface FreshnessProgress {
  slot: MachineSlot;
  now: number;
  unindexedBytes: number | undefined;
  gates: readonly BandGate[];
  /** While a gate is awaited: when the wait is given up (epoch ms). */
  waitDeadline: number | null;
  rowsWritten: number;
}

/** The event a new line is printed for: the band and its stage. */
export function progressEvent(slot: MachineSlot): string {
  return `${slot.phase}/${slot.stage}`;
}

const left = (ms: number) => formatSeconds(Math.max(0, ms) / 1000);

function gateText(g: BandGate, band: number): string {
  if (band === 0) return 'no gate';
  return Number.isFinite(g.max)
    ? `gate ${formatBytes(g.min)} to ${formatBytes(g.max)}`
    : `gate >= ${formatBytes(g.min)}`;
}

export function freshnessProgressLine(p: FreshnessProgress): string {
  const { slot, now } = p;
  const backlog = p.unindexedBytes === undefined ? 'not read yet' : formatBytes(p.unindexedBytes);
  const writes = `${p.rowsWritten} rows written`;
  if (slot.phase === null || slot.stage === 'done')
    return `every band done; ${writes}; the writers stop, and the last probes are read until seen`;
  const band = BANDS[slot.phase];
  const gate = gateText(p.gates[slot.phase], slot.phase);
  if (slot.stage === 'waiting') {
    const giveUp = p.waitDeadline === null ? '' : `, given up in ${left(p.waitDeadline - now)}`;
    return `${band}: waiting for the ${gate}: backlog ${backlog}${giveUp}; ${writes}`;
  }
  let stage: string;
  if (slot.window === null) stage = 'warm-up';
  else if (now >= slot.window.end) stage = 'measured, the band held before the next one';
  else if (slot.stage === 'warmup') stage = `warm-up, measuring in ${left(slot.window.start - now)}`;
  else stage = `measuring, ${left(slot.window.end - now)} left`;
  return `${band}: ${stage}; backlog ${backlog} (${gate}); ${writes}`;
}
