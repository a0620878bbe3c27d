import { describe, expect, it } from 'vitest';
import { plannedEndMs, scheduleMs, WINDOW_GAP_MS, windows } from './schedule';

describe('windows', () => {
  const ws = windows({ topKs: [1, 10, 100], queryWarmupS: 2, queryDurationS: 10 });

  it('puts one window per top_k one after another, a gap apart', () => {
    expect(ws.map((w) => [w.scenario, w.startMs, w.warmupMs, w.measuredMs])).toEqual([
      ['top_k_1', 0, 2000, 10_000],
      ['top_k_10', 13_000, 2000, 10_000],
      ['top_k_100', 26_000, 2000, 10_000],
    ]);
  });

  it('plans the end at the last measured second, and bounds the scenarios one gap later', () => {
    expect(plannedEndMs(ws)).toBe(38_000);
    expect(scheduleMs(ws)).toBe(38_000 + WINDOW_GAP_MS);
  });
});
