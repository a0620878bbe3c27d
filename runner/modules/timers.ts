// The `k6/timers` module (also installed as globals): timers count as pending event-loop work, so an iteration
// ends only when they have fired or been cleared; an interruption clears them all.
import * as nodeTimers from 'node:timers';
import type { VuRuntime } from '../vu/runtime';
import { scriptStack } from '../vu/script-stack';

export function createTimersModule(rt: VuRuntime) {
  // A throwing callback is the script's error, logged like an iteration's; it must not end the VU thread.
  const report = (error: unknown) =>
    rt.log('error', scriptStack(error), {
      source: 'stacktrace',
    });
  const live = new Map<number, { handle: NodeJS.Timeout; release: () => void; interval: boolean }>();
  let nextId = 1;

  rt.onInterrupt(() => {
    for (const [id, t] of live) {
      if (t.interval) nodeTimers.clearInterval(t.handle);
      else nodeTimers.clearTimeout(t.handle);
      t.release();
      live.delete(id);
    }
  });

  function setTimeout(fn: (...args: unknown[]) => void, ms = 0, ...args: unknown[]): number {
    const id = nextId++;
    const release = rt.holdLoop();
    const handle = nodeTimers.setTimeout(() => {
      live.delete(id);
      try {
        fn(...args);
      } catch (error) {
        report(error);
      } finally {
        release();
      }
    }, Number(ms) || 0);
    live.set(id, { handle, release, interval: false });
    return id;
  }

  function setInterval(fn: (...args: unknown[]) => void, ms = 0, ...args: unknown[]): number {
    const id = nextId++;
    const release = rt.holdLoop();
    const handle = nodeTimers.setInterval(() => {
      try {
        fn(...args);
      } catch (error) {
        report(error);
      }
    }, Number(ms) || 0);
    live.set(id, { handle, release, interval: true });
    return id;
  }

  function clear(id: number | undefined): void {
    if (id === undefined) return;
    const t = live.get(id);
    if (!t) return;
    if (t.interval) nodeTimers.clearInterval(t.handle);
    else nodeTimers.clearTimeout(t.handle);
    live.delete(id);
    t.release();
  }

  return { setTimeout, clearTimeout: clear, setInterval, clearInterval: clear };
}
