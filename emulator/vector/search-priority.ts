// Searches go first: on a 2-core machine a query's scan workers compete with everything else the emulator does
// (decoding and appending a large write, committing fresh pages, quantising fresh rows, building indexes), and a
// 40 MB write would otherwise slow the queries running beside it. The worker pool counts the
// search tasks in flight in shared memory; background work checks the count between small chunks and waits while
// it is non-zero, for a bounded time, so it is delayed but never starved.
//
//   main thread: SearchSignal.begin/end around every search task; await afterSearches() between write slices
//   workers:     waitForSearches(view) between chunks of prefaulting, quantising and index building

/** Longest a background chunk waits for searches before it runs anyway (bounds how much a query stream slows it). */
const MAX_BACKGROUND_WAIT_MS = 25;

/** The count of search tasks in flight, shared with the engine's workers (word 0 of the buffer). */
export class SearchSignal {
  readonly buffer = new SharedArrayBuffer(4);
  private readonly view = new Int32Array(this.buffer);
  private readonly waiters = new Set<() => void>();

  get active(): number {
    return Atomics.load(this.view, 0);
  }

  begin(tasks: number): void {
    Atomics.add(this.view, 0, tasks);
  }

  end(tasks: number): void {
    if (Atomics.sub(this.view, 0, tasks) - tasks > 0) return;
    Atomics.notify(this.view, 0);
    for (const wake of [...this.waiters]) wake();
  }

  /** Resolves once no search runs, or after `maxWaitMs` (on the main thread, which must never block). */
  idle(maxWaitMs = MAX_BACKGROUND_WAIT_MS): Promise<void> {
    if (this.active <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, maxWaitMs);
      this.waiters.add(done);
    });
  }
}

/**
 * Blocks the calling worker while searches are in flight, at most `maxWaitMs` in all; returns the milliseconds
 * waited. `view` is an Int32Array over SearchSignal.buffer (null: nothing to wait for).
 */
export function waitForSearches(view: Int32Array | null, maxWaitMs = MAX_BACKGROUND_WAIT_MS): number {
  if (!view) return 0;
  const started = performance.now();
  for (;;) {
    const active = Atomics.load(view, 0);
    if (active <= 0) break;
    const left = maxWaitMs - (performance.now() - started);
    if (left <= 0) break;
    Atomics.wait(view, 0, active, left);
  }
  return performance.now() - started;
}

/** The hook background loops call between chunks; a worker installs waitForSearches, other threads keep a no-op. */
let hook: () => void = () => {};

export function setBackgroundYield(yieldFn: () => void): void {
  hook = yieldFn;
}

/** Called by background work (index builds, quantising, prefaulting) between chunks of a few milliseconds. */
export function backgroundYield(): void {
  hook();
}
