// When the arrival-rate iterations of hosted VUs (several VUs per thread) start. One scheduler per thread keeps its VUs'
// waits in a heap and one alarm for the earliest (./timer-alarm.ts: a Node timer, never early), so the thread sleeps
// until a start is due however many VUs wait, and wakes once per due start (or once for all the starts due by the
// time it fires), never to poll. A scenario's stop (its block's STOP word, set and notified by the main thread) is
// awaited with Atomics.waitAsync and lets that scenario's waiters go at once.

import { nowMs, SC_STOP } from '../control-block';
import { TimerAlarm } from './timer-alarm';

/** What the scheduler needs of an alarm: one pending call at a time, never before its due (./timer-alarm.ts). */
export interface Alarm {
  set(due: number, fire: () => void): void;
  cancel(): void;
}

interface Waiter {
  due: number;
  stop: Int32Array | undefined;
  resolve: () => void;
}

let thread: StartScheduler | undefined;

/** This thread's scheduler (hosted VUs' arrival-rate starts and sleeps). */
export function threadStarts(): StartScheduler {
  thread ??= new StartScheduler(SC_STOP, undefined, new TimerAlarm());
  return thread;
}

export class StartScheduler {
  /** Min-heap on `due`. */
  private heap: Waiter[] = [];
  private alarmDue = Number.POSITIVE_INFINITY;
  private immediate = false;
  /** Stop words already awaited (one waitAsync per scenario block). */
  private readonly watched = new Set<Int32Array>();
  private readonly turn = () => this.run();

  /**
   * @param stopIndex the word of a `stop` block that turns non-zero when its waiters must go (control-block SC_STOP)
   * @param onTurn runs whenever the scheduler wakes for a start
   */
  constructor(
    private readonly stopIndex: number,
    private readonly onTurn: () => void = () => {},
    private alarm?: Alarm,
  ) {}

  /** Resolves once `due` (epoch ms) has come, or as soon as `stop[stopIndex]` is set. */
  wait(due: number, stop?: Int32Array): Promise<void> {
    if (stop && Atomics.load(stop, this.stopIndex) !== 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.push({ due, stop, resolve });
      if (stop) this.watch(stop);
      this.schedule();
    });
  }

  /** Waiters not yet started (for tests). */
  get size(): number {
    return this.heap.length;
  }

  private run(): void {
    this.immediate = false;
    this.alarmDue = Number.POSITIVE_INFINITY;
    this.onTurn();
    const now = nowMs();
    // Earliest first: their VUs continue in this order.
    while (this.heap.length > 0 && this.heap[0].due <= now) this.pop().resolve();
    this.schedule();
  }

  /** One pending wake-up for the earliest waiter: the alarm, or the next event-loop turn when it is already due. */
  private schedule(): void {
    if (this.heap.length === 0) {
      this.alarm?.cancel();
      this.alarmDue = Number.POSITIVE_INFINITY;
      return;
    }
    const due = this.heap[0].due;
    if (due <= nowMs()) {
      if (this.immediate) return;
      this.immediate = true;
      setImmediate(this.turn);
      return;
    }
    if (due === this.alarmDue) return;
    this.alarmDue = due;
    this.alarm ??= new TimerAlarm();
    this.alarm.set(due, this.turn);
  }

  private watch(stop: Int32Array): void {
    if (this.watched.has(stop)) return;
    this.watched.add(stop);
    const stopped = () => {
      this.watched.delete(stop);
      this.release(stop);
    };
    const result = Atomics.waitAsync(stop, this.stopIndex, 0);
    if (result.async) void result.value.then(stopped);
    else queueMicrotask(stopped);
  }

  /** Lets every waiter of a stopped block go at once, in due order. */
  private release(stop: Int32Array): void {
    const gone = this.heap.filter((w) => w.stop === stop).sort((a, b) => a.due - b.due);
    if (gone.length === 0) return;
    const waiting = this.heap.filter((w) => w.stop !== stop);
    this.heap = [];
    for (const w of waiting) this.push(w);
    for (const w of gone) w.resolve();
    this.schedule();
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
