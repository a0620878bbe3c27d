import { describe, expect, it } from 'vitest';
import { LoopLagProbe, lagMs } from './loop-lag';

describe('event-loop lag', () => {
  it('is the part of the probe interval beyond its resolution, never negative', () => {
    expect(lagMs(10_000_000, 10)).toBe(0);
    expect(lagMs(9_500_000, 10)).toBe(0);
    expect(lagMs(35_700_000, 10)).toBeCloseTo(25.7, 9);
    expect(lagMs(0, 5)).toBe(0);
  });

  it('a loop blocked for 60 ms reads at least 50 ms of lag; the next window starts from zero', async () => {
    const probe = new LoopLagProbe(10);
    try {
      await new Promise((r) => setTimeout(r, 30));
      const until = performance.now() + 60;
      while (performance.now() < until) {
        // blocks this thread's event loop
      }
      await new Promise((r) => setTimeout(r, 30));
      expect(probe.take()).toBeGreaterThanOrEqual(50);
      expect(probe.take()).toBe(0);
    } finally {
      probe.stop();
    }
  });
});
