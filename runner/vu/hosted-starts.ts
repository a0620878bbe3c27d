// When the arrival-rate iterations of hosted VUs (several VUs per thread, --vu-threads) start. Node's timers tick in
// whole milliseconds, so the last millisecond before a start is spun on setImmediate. One scheduler per thread does
// that for all of the thread's VUs: one check per event-loop turn, however many VUs wait, where each VU spinning on its
// own cost a promise and a microtask per VU per turn and kept the loop turning once per waiting VU.

import { nowMs } from '../control-block';

/** Timer waits end this early; the rest is spun (Node's timers fire up to 1 ms late). */
export const SPIN_MS = 1;

/** Longest timer wait before the waiters' stop conditions are looked at again (a timer is not woken by a stop). */
export const STOP_CHECK_MS = 25;

interface Waiter {
  due: number;
  stopped: () => boolean;
  resolve: () => void;
}

export class StartScheduler {
  /** Few (the VUs of one thread), so a plain array scanned per check beats keeping a heap. */
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  private timerDue = Number.POSITIVE_INFINITY;
  private spinning = false;
  private readonly turn = () => this.run();

  /** @param onTurn runs on every timer or spin turn (hosted VUs flush their thread's buffered samples there) */
  constructor(private readonly onTurn: () => void = () => {}) {}

  /** Resolves once `due` (epoch ms) has come, or as soon as `stopped()` is seen true. */
  wait(due: number, stopped: () => boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push({ due, stopped, resolve });
      this.schedule(nowMs());
    });
  }

  /** Waiters not yet started (for tests). */
  get size(): number {
    return this.waiters.length;
  }

  private run(): void {
    this.spinning = false;
    this.onTurn();
    const now = nowMs();
    const ready: Waiter[] = [];
    const rest: Waiter[] = [];
    for (const w of this.waiters) (w.due <= now || w.stopped() ? ready : rest).push(w);
    if (ready.length > 0) {
      this.waiters = rest;
      // Earlier starts first: their VUs continue in this order.
      ready.sort((a, b) => a.due - b.due);
      for (const w of ready) w.resolve();
    }
    this.schedule(now);
  }

  /** One pending wake-up for the earliest waiter: a timer while it is far, a spin turn once it is near. */
  private schedule(now: number): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const w of this.waiters) if (w.due < earliest) earliest = w.due;
    if (earliest === Number.POSITIVE_INFINITY) {
      this.clearTimer();
      return;
    }
    const left = earliest - now;
    if (left <= SPIN_MS) {
      this.clearTimer();
      if (!this.spinning) {
        this.spinning = true;
        setImmediate(this.turn);
      }
      return;
    }
    const wakeAt = now + Math.min(left - SPIN_MS, STOP_CHECK_MS);
    if (this.timer !== null && this.timerDue <= wakeAt) return;
    this.clearTimer();
    this.timerDue = wakeAt;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = Number.POSITIVE_INFINITY;
      this.run();
    }, wakeAt - now);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = Number.POSITIVE_INFINITY;
  }
}
