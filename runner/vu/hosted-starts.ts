// When the arrival-rate iterations of hosted VUs (several VUs per thread, --vu-threads) start. Node's timers tick in
// whole milliseconds, so the last millisecond before a start is spun on setImmediate. One scheduler per thread does
// that for all of the thread's VUs: one check per event-loop turn, however many VUs wait, where each VU spinning on its
// own cost a promise and a microtask per VU per turn and kept the loop turning once per waiting VU.

import { nowMs } from '../control-block';

/** Timer waits end this early; the rest is spun (Node's timers fire up to 1 ms late). */
const SPIN_MS = 1;

/**
 * How often the waiters' stop conditions are looked at (a timer is not woken by a stop). Not on every spin turn: with
 * hundreds of VUs on a thread that scan would cost more than the spinning itself.
 */
const STOP_CHECK_MS = 25;

interface Waiter {
  due: number;
  stopped: () => boolean;
  resolve: () => void;
}

export class StartScheduler {
  /** Min-heap on `due`: a spin turn only looks at the earliest start. */
  private heap: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  private timerDue = Number.POSITIVE_INFINITY;
  private spinning = false;
  private lastStopCheck = nowMs();
  private readonly turn = () => this.run();

  /** @param onTurn runs on every timer or spin turn (hosted VUs flush their thread's buffered samples there) */
  constructor(private readonly onTurn: () => void = () => {}) {}

  /** Resolves once `due` (epoch ms) has come, or within STOP_CHECK_MS of `stopped()` turning true. */
  wait(due: number, stopped: () => boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      this.push({ due, stopped, resolve });
      this.schedule(nowMs());
    });
  }

  /** Waiters not yet started (for tests). */
  get size(): number {
    return this.heap.length;
  }

  private run(): void {
    this.spinning = false;
    this.onTurn();
    const now = nowMs();
    if (now - this.lastStopCheck >= STOP_CHECK_MS) this.releaseStopped(now);
    // Earliest first: their VUs continue in this order.
    while (this.heap.length > 0 && this.heap[0].due <= now) this.pop().resolve();
    this.schedule(now);
  }

  /** Lets every stopped waiter go at once, in due order. */
  private releaseStopped(now: number): void {
    this.lastStopCheck = now;
    const stopped = this.heap.filter((w) => w.stopped());
    if (stopped.length === 0) return;
    const gone = new Set(stopped);
    const waiting = this.heap.filter((w) => !gone.has(w));
    this.heap = [];
    for (const w of waiting) this.push(w);
    stopped.sort((a, b) => a.due - b.due);
    for (const w of stopped) w.resolve();
  }

  /** One pending wake-up for the earliest waiter: a timer while it is far, a spin turn once it is near. */
  private schedule(now: number): void {
    if (this.heap.length === 0) {
      this.clearTimer();
      return;
    }
    const left = this.heap[0].due - now;
    if (left <= SPIN_MS) {
      this.clearTimer();
      if (!this.spinning) {
        this.spinning = true;
        setImmediate(this.turn);
      }
      return;
    }
    const wakeAt = now + Math.min(left - SPIN_MS, STOP_CHECK_MS - (now - this.lastStopCheck));
    if (this.timer !== null && this.timerDue <= wakeAt) return;
    this.clearTimer();
    this.timerDue = wakeAt;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerDue = Number.POSITIVE_INFINITY;
        this.run();
      },
      Math.max(0, wakeAt - now),
    );
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = Number.POSITIVE_INFINITY;
  }

  private push(w: Waiter): void {
    const heap = this.heap;
    let at = heap.length;
    heap.push(w);
    while (at > 0) {
      const up = (at - 1) >> 1;
      if (heap[up].due <= w.due) break;
      heap[at] = heap[up];
      at = up;
    }
    heap[at] = w;
  }

  private pop(): Waiter {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop() as Waiter;
    if (heap.length > 0) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= heap.length) break;
        const right = left + 1;
        const child = right < heap.length && heap[right].due < heap[left].due ? right : left;
        if (heap[child].due >= last.due) break;
        heap[at] = heap[child];
        at = child;
      }
      heap[at] = last;
    }
    return top;
  }
}
