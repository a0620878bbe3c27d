import { describe, expect, it } from 'vitest';
import { LoopLagProbe } from './loop-lag';

const block = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // blocks this thread's event loop
  }
};

describe('event-loop lag', () => {
  it('a loop blocked for 60 ms reads at least 40 ms of lag; the next window starts from zero', async () => {
    const probe = new LoopLagProbe(undefined, { busyMs: 10, idleMs: 10 });
    try {
      await new Promise((r) => setTimeout(r, 30));
      block(60);
      await new Promise((r) => setTimeout(r, 30));
      expect(probe.take()).toBeGreaterThanOrEqual(40);
      expect(probe.take()).toBe(0);
    } finally {
      probe.stop();
    }
  });

  it('publishes each new largest lag of its window', async () => {
    const published: number[] = [];
    const probe = new LoopLagProbe((lag) => published.push(lag), { busyMs: 10, idleMs: 10 });
    try {
      await new Promise((r) => setTimeout(r, 15));
      block(50);
      await new Promise((r) => setTimeout(r, 15));
      expect(published.length).toBeGreaterThan(0);
      expect(Math.max(...published)).toBe(probe.take());
    } finally {
      probe.stop();
    }
  });

  it('ticks at its idle interval while the thread does nothing, and at its busy interval while it works', async () => {
    let active = 0;
    const probe = new LoopLagProbe(undefined, { busyMs: 5, idleMs: 100, activeMs: () => active });
    try {
      // Idle: after the first tick finds no activity, the next is 100 ms away.
      await new Promise((r) => setTimeout(r, 150));
      const idleTicks = probe.ticks;
      expect(idleTicks).toBeGreaterThanOrEqual(1);
      expect(idleTicks).toBeLessThanOrEqual(3);
      // Busy: the loop reports 2 ms of work every millisecond, so each tick finds activity and the next is 5 ms away.
      const busy = setInterval(() => {
        active += 2;
      }, 1);
      await new Promise((r) => setTimeout(r, 200));
      clearInterval(busy);
      expect(probe.ticks - idleTicks).toBeGreaterThanOrEqual(8);
    } finally {
      probe.stop();
    }
  });
});
