// Group commit on a fake clock: when commits start, which writes ride in each, when each write is acknowledged.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GroupCommit } from './group-commit';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A committer on the fake clock that records each commit's time and highest seq, and each write's ack time. */
function committer(intervalMs: number, putMs: number) {
  const commits: [number, number][] = [];
  const acks = new Map<number, number>();
  const start = Date.now();
  const gc = new GroupCommit(
    { intervalMs, putMs },
    (seq) => commits.push([Date.now() - start, seq]),
    () => Date.now(),
  );
  const write = (seq: number) => {
    void gc.commit(seq).then(() => acks.set(seq, Date.now() - start));
  };
  return { gc, commits, acks, write };
}

describe('GroupCommit', () => {
  it('commits a lone write at once and acknowledges it one PUT later', async () => {
    const { commits, acks, write } = committer(1000, 100);
    write(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(acks.size).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(commits).toEqual([[100, 1]]);
    expect(acks.get(1)).toBe(100);
  });

  it('starts the next commit an interval after the last one started; writes meanwhile ride in it together', async () => {
    const { commits, acks, write } = committer(1000, 100);
    write(1);
    await vi.advanceTimersByTimeAsync(150);
    write(2);
    await vi.advanceTimersByTimeAsync(300);
    write(3);
    write(4);
    await vi.advanceTimersByTimeAsync(2000);
    // The second commit starts at 1000 (1 s after the first started) with writes 2-4, durable at 1100.
    expect(commits).toEqual([
      [100, 1],
      [1100, 4],
    ]);
    expect([...acks]).toEqual([
      [1, 100],
      [2, 1100],
      [3, 1100],
      [4, 1100],
    ]);
  });

  it('a write arriving during a PUT waits for the next commit, not the current one', async () => {
    const { commits, write } = committer(50, 100);
    write(1);
    await vi.advanceTimersByTimeAsync(10);
    write(2);
    await vi.advanceTimersByTimeAsync(500);
    // Commits never overlap: the second starts when the first is durable (100), after the 50 ms interval.
    expect(commits).toEqual([
      [100, 1],
      [200, 2],
    ]);
  });

  it('needs no commit for records that were durable before it started (recovery), and close releases waiters', async () => {
    const { gc, commits, acks, write } = committer(1000, 100);
    gc.startAfter(5);
    await gc.commit(3);
    write(6);
    gc.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(acks.has(6)).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(commits).toEqual([]);
    expect(gc.pending).toBe(0);
  });
});
