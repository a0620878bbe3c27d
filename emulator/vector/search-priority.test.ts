import { afterEach, describe, expect, it, vi } from 'vitest';
import { backgroundYield, SearchSignal, setBackgroundYield, waitForSearches } from './search-priority';

describe('search priority', () => {
  afterEach(() => {
    vi.useRealTimers();
    setBackgroundYield(() => {});
  });

  it('idle() resolves at once without searches and when the last running search ends', async () => {
    const signal = new SearchSignal();
    await signal.idle(10_000);
    signal.begin(2);
    let resolved = false;
    const idle = signal.idle(10_000).then(() => {
      resolved = true;
    });
    signal.end(1);
    await Promise.resolve();
    expect(resolved).toBe(false);
    expect(signal.active).toBe(1);
    signal.end(1);
    await idle;
    expect(resolved).toBe(true);
    expect(signal.active).toBe(0);
  });

  it('idle() gives up after maxWaitMs while a search keeps running (writes are delayed, never starved)', async () => {
    vi.useFakeTimers();
    const signal = new SearchSignal();
    signal.begin(1);
    let resolved = false;
    const idle = signal.idle(25).then(() => {
      resolved = true;
    });
    await vi.advanceTimersByTimeAsync(24);
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await idle;
    expect(resolved).toBe(true);
    expect(signal.active).toBe(1);
  });

  it('waitForSearches returns at once when nothing runs and waits at most maxWaitMs otherwise', () => {
    const signal = new SearchSignal();
    const view = new Int32Array(signal.buffer);
    expect(waitForSearches(null)).toBe(0);
    expect(waitForSearches(view, 1000)).toBeLessThan(50);
    signal.begin(1);
    const waited = waitForSearches(view, 5);
    expect(waited).toBeGreaterThanOrEqual(4);
    expect(waited).toBeLessThan(1000);
  });

  it('backgroundYield calls the installed hook (a worker installs waitForSearches)', () => {
    let calls = 0;
    backgroundYield();
    setBackgroundYield(() => {
      calls++;
    });
    backgroundYield();
    backgroundYield();
    expect(calls).toBe(2);
  });
});
