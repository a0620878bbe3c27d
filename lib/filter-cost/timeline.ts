// Experiment 2's schedule: after the JIT warm-up, one query window per cell and consistency (strong, then eventual),
// each starting when the previous one's graceful stop has ended. Pure.

import type { Consistency } from '../turbopuffer-wire';
import { CONSISTENCIES, type QueryCell } from './cells';
import type { FilterCostConfig } from './config';
import { windowScenario } from './metric-keys';

export interface QueryWindow {
  cell: QueryCell;
  consistency: Consistency;
  scenario: string;
  /** Offset of the scenario's start from the end of setup(), ms. */
  startMs: number;
  /** Unmeasured, then measured milliseconds. */
  warmupMs: number;
  measuredMs: number;
}

export interface Timeline {
  jitMs: number;
  windows: QueryWindow[];
  /** When the last window's graceful stop ends, ms after setup(). */
  totalMs: number;
}

const ms = (s: number) => Math.round(s * 1000);

export function timeline(c: FilterCostConfig, cells: readonly QueryCell[]): Timeline {
  const jitMs = ms(c.jitWarmupS);
  const gapMs = ms(c.cellGapS);
  const warmupMs = ms(c.queryWarmupS);
  const measuredMs = ms(c.queryDurationS);
  const step = warmupMs + measuredMs + gapMs;
  // The warm-up scenario is followed by the same gap as every window: VUs handed over at the very instant the next
  // scenario starts may miss its first starts (dropped iterations).
  let at = jitMs > 0 ? jitMs + gapMs : 0;
  const windows: QueryWindow[] = [];
  for (const cell of cells)
    for (const consistency of CONSISTENCIES) {
      windows.push({
        cell,
        consistency,
        scenario: windowScenario(cell, consistency),
        startMs: at,
        warmupMs,
        measuredMs,
      });
      at += step;
    }
  return { jitMs, windows, totalMs: at };
}
