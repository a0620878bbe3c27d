// VU allocation across scenarios (pure): each scenario needs its VUs from its startTime to its hard end; VUs are
// never shared between scenarios whose windows overlap, so the peak is the largest sum over overlapping windows.
import { formatGoDuration } from '../../core/durations';
import { hardEnd, maxVUsOf, plannedVUs, type ScenarioConfig } from './index';

export interface ExecutionPlan {
  /** VUs initialised before setup. */
  plannedPeak: number;
  /** Peak planned + unplanned (arrival-rate maxVUs − preAllocatedVUs): the header's "max VUs". */
  maxVUs: number;
  /** Latest hard end in ms (regular end + gracefulStop). */
  maxDuration: number;
}

function peak(scenarios: ScenarioConfig[], need: (c: ScenarioConfig) => number): number {
  // Sweep over window edges; an end at the same instant as a start frees VUs first.
  const edges: Array<[number, number]> = [];
  for (const c of scenarios) {
    edges.push([c.startTime, need(c)]);
    edges.push([hardEnd(c), -need(c)]);
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let current = 0;
  let max = 0;
  for (const [, delta] of edges) {
    current += delta;
    max = Math.max(max, current);
  }
  return max;
}

export function executionPlan(scenarios: ScenarioConfig[]): ExecutionPlan {
  return {
    plannedPeak: peak(scenarios, plannedVUs),
    maxVUs: peak(scenarios, maxVUsOf),
    maxDuration: Math.max(0, ...scenarios.map(hardEnd)),
  };
}

/**
 * The header line: "scenarios: (100.00%) 2 scenarios, 20 max VUs, 10m40s max duration (incl. graceful stop):", where
 * the percentage is the execution segment's share of the test (`share`, 1 without segments).
 */
export function planHeader(scenarios: ScenarioConfig[], plan: ExecutionPlan, share = 1): string {
  const n = scenarios.length;
  const rounded = Math.round(plan.maxDuration / 100) * 100;
  return `scenarios: (${(share * 100).toFixed(2)}%) ${n} scenario${n === 1 ? '' : 's'}, ${plan.maxVUs} max VUs, ${formatGoDuration(rounded)} max duration (incl. graceful stop):`;
}
