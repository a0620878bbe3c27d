import { describe, expect, it } from 'vitest';
import { nowMs } from '../control-block';
import { StartScheduler } from './hosted-starts';

describe('StartScheduler', () => {
  it('starts each waiter at or after its due time, earlier dues first, whatever the order they arrived in', async () => {
    const starts = new StartScheduler();
    const base = nowMs();
    const order: number[] = [];
    const early: number[] = [];
    const waits = [8, 3, 5, 30].map((offset) =>
      starts
        .wait(base + offset, () => false)
        .then(() => {
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
    const starts = new StartScheduler();
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
        starts
          .wait(due, () => false)
          .then(() => {
            started.push(due);
            if (nowMs() < due) early++;
          }),
      ),
    );
    expect(started).toEqual([...dues].sort((a, b) => a - b));
    expect(early).toBe(0);
  });

  it('lets a stopped waiter go without waiting for its due time, and keeps the others waiting', async () => {
    const starts = new StartScheduler();
    let stop = false;
    let release = false;
    let laterStarted = false;
    const later = starts
      .wait(nowMs() + 60_000, () => release)
      .then(() => {
        laterStarted = true;
      });
    const stopped = starts.wait(nowMs() + 60_000, () => stop);
    setTimeout(() => {
      stop = true;
    }, 5);
    await stopped;
    expect(laterStarted).toBe(false);
    expect(starts.size).toBe(1);
    // Let the other waiter go too, so the test leaves no timer behind.
    release = true;
    await later;
    expect(starts.size).toBe(0);
  });

  it('calls onTurn on its timer and spin turns (hosted VUs flush buffered samples there)', async () => {
    let turns = 0;
    const starts = new StartScheduler(() => {
      turns++;
    });
    await starts.wait(nowMs() + 4, () => false);
    expect(turns).toBeGreaterThan(0);
  });
});
