// The modelled cache on a fake clock: what a query finds cold, while loading and hot; hints, purges, bypasses.
import { describe, expect, it } from 'vitest';
import { NamespaceCache, wait } from './cache';

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('NamespaceCache', () => {
  it('a namespace created by a write is hot; purged it is cold and the next query waits for the whole load', () => {
    const c = clock();
    const cache = new NamespaceCache(252, true, c.now);
    expect(cache.read()).toEqual({ temperature: 'hot', hitRatio: 1, waitMs: 0 });
    cache.purge();
    expect(cache.temperature).toBe('cold');
    expect(cache.read()).toEqual({ temperature: 'cold', hitRatio: 0, waitMs: 252 });
    // A second query 63 ms into that load finds a quarter of it done and waits for the rest.
    c.advance(63);
    expect(cache.read()).toEqual({ temperature: 'warm', hitRatio: 0.25, waitMs: 189 });
    c.advance(189);
    expect(cache.read()).toEqual({ temperature: 'hot', hitRatio: 1, waitMs: 0 });
  });

  it('a hint starts the load without waiting; a query after it pays only what is left', () => {
    const c = clock();
    const cache = new NamespaceCache(200, false, c.now);
    cache.warm();
    c.advance(150);
    expect(cache.temperature).toBe('warm');
    expect(cache.read()).toMatchObject({ temperature: 'warm', waitMs: 50 });
    cache.warm(); // already loading: nothing restarts
    c.advance(50);
    expect(cache.temperature).toBe('hot');
  });

  it('disable_cache pays the whole load every time and leaves the cache as it was', () => {
    const c = clock();
    const cache = new NamespaceCache(200, true, c.now);
    expect(cache.read(true)).toEqual({ temperature: 'cold', hitRatio: 0, waitMs: 200 });
    expect(cache.read()).toEqual({ temperature: 'hot', hitRatio: 1, waitMs: 0 });
    cache.purge();
    expect(cache.read(true)).toEqual({ temperature: 'cold', hitRatio: 0, waitMs: 200 });
    expect(cache.temperature).toBe('cold');
  });

  it('without a latency model it is always hot: purging changes nothing', () => {
    const cache = new NamespaceCache(0, false);
    expect(cache.modelled).toBe(false);
    cache.purge();
    expect(cache.read()).toEqual({ temperature: 'hot', hitRatio: 1, waitMs: 0 });
    expect(cache.read(true)).toEqual({ temperature: 'hot', hitRatio: 1, waitMs: 0 });
  });
});

describe('wait', () => {
  it('never ends before its time by performance.now(), the clock server timings use', async () => {
    for (const ms of [1, 2, 5, 7, 13]) {
      const started = performance.now();
      await wait(ms);
      expect(performance.now() - started).toBeGreaterThanOrEqual(ms);
    }
  });
});
