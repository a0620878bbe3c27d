import { describe, expect, it } from 'vitest';
import { nowMs } from '../control-block';
import { type Alarm, StartScheduler } from './hosted-starts';
import { TimerAlarm } from './timer-alarm';

/** A real alarm that counts how often it was set and fired. */
function countingAlarm(): Alarm & { sets: number; fires: number } {
  const timer = new TimerAlarm();
  const alarm = {
    sets: 0,
    fires: 0,
    set(due: number, fire: () => void) {
      alarm.sets++;
      timer.set(due, () => {
        alarm.fires++;
        fire();
      });
    },
    cancel: () => timer.cancel(),
  };
  return alarm;
}

const stopWord = () => new Int32Array(new SharedArrayBuffer(4));

describe('StartScheduler', () => {
  it('starts each waiter at or after its due time, earlier dues first, whatever the order they arrived in', async () => {
    const starts = new StartScheduler(0, undefined, countingAlarm());
    const stop = stopWord();
    const base = nowMs();
    const order: number[] = [];
    const early: number[] = [];
    const waits = [8, 3, 5, 30].map((offset) =>
      starts.wait(base + offset, stop).then(() => {
        order.push(offset);
        if (nowMs() < base + offset) early.push(offset);
      }),
    );
    expect(starts.size).toBe(4);
    await Promise.all(waits);
    expect(order).toEqual([3, 5, 8, 30]);
    expect(early).toEqual([]);
    expect(starts.size).toBe(0);
  });

  it('keeps due order across many waiters added in random order (200 VUs on one thread)', async () => {
    const starts = new StartScheduler(0, undefined, countingAlarm());
    const stop = stopWord();
    const base = nowMs() + 2;
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const dues = Array.from({ length: 200 }, () => base + Math.floor(random() * 40 * 4) / 4);
    const started: number[] = [];
    let early = 0;
    await Promise.all(
      dues.map((due) =>
        starts.wait(due, stop).then(() => {
          started.push(due);
          if (nowMs() < due) early++;
        }),
      ),
    );
    expect(started).toEqual([...dues].sort((a, b) => a - b));
    expect(early).toBe(0);
  });

  it('sleeps until a start is due: one alarm and one wake-up per start, no polling while it waits', async () => {
    let turns = 0;
    const alarm = countingAlarm();
    const starts = new StartScheduler(0, () => turns++, alarm);
    const stop = stopWord();
    // Three starts 40 ms apart: the old scheduler polled every 25 ms and spun through the last millisecond of each.
    const base = nowMs();
    for (const offset of [40, 80, 120]) await starts.wait(base + offset, stop);
    // Each start is one wake-up (the alarm, or the next turn when the machine stalled past its time).
    expect(turns).toBe(3);
    expect(alarm.fires).toBeLessThanOrEqual(3);
    expect(alarm.sets).toBeLessThanOrEqual(3);
  });

  it("lets a stopped scenario's waiters go at once, and keeps the others waiting", async () => {
    const starts = new StartScheduler(0, undefined, countingAlarm());
    const stopA = stopWord();
    const stopB = stopWord();
    let laterStarted = false;
    const later = starts.wait(nowMs() + 60_000, stopB).then(() => {
      laterStarted = true;
    });
    const stopped = Promise.all([starts.wait(nowMs() + 60_000, stopA), starts.wait(nowMs() + 50_000, stopA)]);
    setTimeout(() => {
      Atomics.store(stopA, 0, 1);
      Atomics.notify(stopA, 0);
    }, 5);
    await stopped;
    expect(laterStarted).toBe(false);
    expect(starts.size).toBe(1);
    // Stop the other scenario too, so the test leaves nothing waiting.
    Atomics.store(stopB, 0, 1);
    Atomics.notify(stopB, 0);
    await later;
    expect(starts.size).toBe(0);
    // A wait on a scenario that has already stopped returns at once.
    await starts.wait(nowMs() + 60_000, stopA);
  });
});

describe('TimerAlarm', () => {
  it('fires once, not before its time; a replaced alarm fires only as the new one', async () => {
    const alarm = new TimerAlarm();
    const fired: number[] = [];
    const due = nowMs() + 15;
    await new Promise<void>((resolve) => {
      alarm.set(nowMs() + 5, () => fired.push(-1));
      alarm.set(due, () => {
        fired.push(nowMs() - due);
        resolve();
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fired).toHaveLength(1);
    expect(fired[0]).toBeGreaterThanOrEqual(0);
  });

  it('fires each of a series of sub-millisecond dues at or after its time, in order', async () => {
    const alarm = new TimerAlarm();
    const base = nowMs();
    // 0.3 ms apart: several fall within one tick of Node's timers, whose loop time may also be behind the real one.
    const dues = Array.from({ length: 20 }, (_, i) => base + 0.3 * (i + 1));
    const late: number[] = [];
    await new Promise<void>((resolve) => {
      const arm = (i: number) =>
        alarm.set(dues[i], () => {
          late.push(nowMs() - dues[i]);
          if (i + 1 < dues.length) arm(i + 1);
          else resolve();
        });
      arm(0);
    });
    expect(late).toHaveLength(dues.length);
    expect(late.every((ms) => ms >= 0)).toBe(true);
  });

  it('never fires a cancelled alarm', async () => {
    const alarm = new TimerAlarm();
    let fired = 0;
    alarm.set(nowMs() + 5, () => fired++);
    alarm.cancel();
    await new Promise((resolve) => setTimeout(resolve, 25));
    expect(fired).toBe(0);
  });
});
