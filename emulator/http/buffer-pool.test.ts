// The pool reuses released buffers (best fit), caps what it keeps, and drops everything once idle.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BufferPool, IDLE_TRIM_MS } from './buffer-pool';

const MiB = 2 ** 20;

afterEach(() => {
  vi.useRealTimers();
});

describe('BufferPool', () => {
  it('hands a released buffer out again for a request that fits, and aligned for Float32Array views', () => {
    const pool = new BufferPool(64 * MiB);
    const a = pool.acquire(3 * MiB);
    expect(a.length).toBe(3 * MiB);
    pool.release(a);
    expect(pool.retainedBytes).toBe(4 * MiB);
    const b = pool.acquire(2 * MiB);
    expect(b.buffer).toBe(a.buffer);
    expect(b.byteOffset % 8).toBe(0);
    expect(pool.retainedBytes).toBe(0);
  });

  it('keeps at most its cap and nothing below 1 MiB', () => {
    const pool = new BufferPool(8 * MiB);
    pool.release(pool.acquire(100));
    expect(pool.retainedBytes).toBe(0);
    const a = pool.acquire(6 * MiB);
    const b = pool.acquire(6 * MiB);
    pool.release(a);
    pool.release(b);
    // Both are 8 MiB buffers (powers of two); only one fits under the cap.
    expect(pool.retainedBytes).toBe(8 * MiB);
  });

  it('drops its buffers after being idle', () => {
    vi.useFakeTimers();
    const pool = new BufferPool();
    pool.release(pool.acquire(2 * MiB));
    expect(pool.retainedBytes).toBe(2 * MiB);
    vi.advanceTimersByTime(IDLE_TRIM_MS + 10);
    expect(pool.retainedBytes).toBe(0);
  });
});
