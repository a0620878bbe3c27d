// The top-k experiment's timeline: one query window per top_k value, one after another, each a warm-up then its
// measured seconds, with a one-second gap so the next window starts on VUs that have finished. Pure.

/** The gap between windows, also each window's graceful stop (ms). */
export const WINDOW_GAP_MS = 1000;

export interface Window {
  topK: number;
  /** The k6 scenario that runs it: `top_k_<value>`. */
  scenario: string;
  /** Offset of its start from the end of setup(), ms. */
  startMs: number;
  warmupMs: number;
  measuredMs: number;
}

function scenarioName(topK: number): string {
  return `top_k_${topK}`;
}

export function windows(c: { topKs: number[]; queryWarmupS: number; queryDurationS: number }): Window[] {
  const warmupMs = c.queryWarmupS * 1000;
  const measuredMs = c.queryDurationS * 1000;
  return c.topKs.map((topK, i) => ({
    topK,
    scenario: scenarioName(topK),
    startMs: i * (warmupMs + measuredMs + WINDOW_GAP_MS),
    warmupMs,
    measuredMs,
  }));
}

/** When the last window's measured seconds end, ms after setup(): the earliest the scenarios can all have ended. */
export function plannedEndMs(ws: readonly Window[]): number {
  const last = ws[ws.length - 1];
  return last.startMs + last.warmupMs + last.measuredMs;
}

/** When the last window's graceful stop ends, ms after setup(): the longest the scenarios can last. */
export function scheduleMs(ws: readonly Window[]): number {
  const last = ws[ws.length - 1];
  return last.startMs + last.warmupMs + last.measuredMs + WINDOW_GAP_MS;
}

/** The window `scenario` runs, or undefined for a scenario of no window. */
export function windowOf(ws: readonly Window[], scenario: string): Window | undefined {
  return ws.find((w) => w.scenario === scenario);
}
