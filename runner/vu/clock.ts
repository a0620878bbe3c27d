// A one-shot alarm with sub-millisecond precision for a thread's event loop, made of two sleeping threads. Node's timers
// fire on whole milliseconds of a cached loop time (up to a millisecond early or late), so they cannot place an
// arrival-rate start; Atomics.wait sleeps in the kernel to the microsecond, but blocks its thread. Here a tiny helper
// thread (one per Clock) does the Atomics.wait until the alarm's time, or until the alarm changes, and then wakes
// this thread's event loop through Atomics.waitAsync. Nothing spins: both threads sleep until the instant.
// An alarm may name the one expected after it (`then`): the helper arms that one itself as it fires, so when the thread
// sets it next, as a scheduler working through a queue of starts does, the helper needs no wake-up (at 2000 starts/s
// that was one futex wake and one extra helper wake-up per start).
import { Worker } from 'node:worker_threads';
import { nowMs } from '../control-block';

/** BigInt64 slots: the alarm's time and the one announced after it (process.hrtime.bigint() ns; 0 for none). */
const DUE = 0;
const THEN = 1;
/** Int32 words after the two slots. */
const SEQ = 0; // bumped whenever the thread changes the alarm (not when the helper moves on to THEN)
const FIRED = 1; // the SEQ value of the alarm the helper fired, -1 when none is waiting to be seen

/**
 * The helper thread: sleeps until the current alarm (process.hrtime.bigint() nanoseconds: the one monotonic clock all
 * threads share) or until SEQ moves, fires by storing the alarm's SEQ in FIRED, having moved on to THEN when it is
 * later (unless the thread changed the alarm meanwhile), else sleeps until the next change.
 */
const HELPER = `
const { workerData } = require('node:worker_threads');
const slots = new BigInt64Array(workerData, 0, 2);
const words = new Int32Array(workerData, 16, 2);
for (;;) {
  const seq = Atomics.load(words, ${SEQ});
  const at = Atomics.load(slots, ${DUE});
  const left = Number(at - process.hrtime.bigint()) / 1e6;
  if (at === 0n) Atomics.wait(words, ${SEQ}, seq);
  else if (left > 0) Atomics.wait(words, ${SEQ}, seq, left);
  else {
    // Armed before the thread is told: once woken it may set the next alarm at once, before this thread runs again.
    const then = Atomics.load(slots, ${THEN});
    const next = then > at && Atomics.compareExchange(slots, ${DUE}, at, then) === at;
    Atomics.store(words, ${FIRED}, seq);
    Atomics.notify(words, ${FIRED});
    if (!next) Atomics.wait(words, ${SEQ}, seq);
  }
}
`;

export class Clock {
  private readonly slots: BigInt64Array;
  private readonly words: Int32Array;
  /** The `then` of the last set() and its THEN slot value: a set() for it may find the helper already armed. */
  private thenDue = Number.NaN;
  private thenNs = 0n;
  /** Alarms handed to the helper by a change it must be woken for (for tests). */
  handoffs = 0;
  /** Resolves once the helper runs (until then alarms are Node timers). */
  readonly started: Promise<void>;
  private readonly helper: Worker;
  private listening = false;
  private fire: (() => void) | undefined;
  /** Until the helper runs (its start takes tens of ms, hundreds on a loaded machine) alarms are Node timers. */
  private online = false;
  private due = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor() {
    const shared = new SharedArrayBuffer(24);
    this.slots = new BigInt64Array(shared, 0, 2);
    this.words = new Int32Array(shared, 16, 2);
    Atomics.store(this.words, FIRED, -1);
    // The helper only sleeps and stores a word: the smallest heaps V8 allows are plenty.
    this.helper = new Worker(HELPER, {
      eval: true,
      workerData: shared,
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1, stackSizeMb: 1 },
    });
    // It must not keep a thread that has nothing else to do alive.
    this.helper.unref();
    let started: () => void = () => {};
    this.started = new Promise((resolve) => {
      started = resolve;
    });
    this.helper.once('online', () => {
      this.online = true;
      started();
      if (this.timer === undefined) return;
      // The alarm set meanwhile moves to the helper.
      clearTimeout(this.timer);
      this.timer = undefined;
      if (this.fire) this.set(this.due, this.fire, this.thenDue);
    });
  }

  /**
   * Calls `fire` once at `due` (epoch ms, nowMs()), not before; replaces the alarm set before, if any. `then`: the due
   * of the alarm likely to be set after this one (a hint; the helper may fire it unasked, which set() and cancel()
   * tell apart from a real alarm).
   */
  set(due: number, fire: () => void, then = Number.NaN): void {
    this.fire = fire;
    this.due = due;
    if (!this.online) {
      this.thenDue = then;
      clearTimeout(this.timer);
      // Whole milliseconds, rounded up, then checked: a Node timer may fire early by its cached loop time.
      const onTime = () => {
        this.timer = undefined;
        if (nowMs() < due) this.timer = setTimeout(onTime, 1);
        else this.deliver();
      };
      this.timer = setTimeout(onTime, Math.max(0, Math.ceil(due - nowMs())));
      return;
    }
    // The helper moved on to this alarm by itself (it was the last set()'s `then`) and has not fired it yet: only the
    // next hint changes. Within 10 µs of its time it may have fired already (a fire this thread took for the previous
    // alarm): the alarm is then set again, as any other.
    const armed =
      due === this.thenDue && Atomics.load(this.slots, DUE) === this.thenNs && due - nowMs() > 0.01;
    this.announce(then);
    if (!armed) {
      this.handoffs++;
      Atomics.store(this.slots, DUE, this.hrtimeOf(due));
      this.changed();
    }
    this.listen();
  }

  cancel(): void {
    if (!this.fire) return;
    this.fire = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.announce(Number.NaN);
    Atomics.store(this.slots, DUE, 0n);
    this.changed();
  }

  /** Stops the helper thread. */
  close(): Promise<number> {
    this.fire = undefined;
    return this.helper.terminate();
  }

  /** process.hrtime.bigint() nanoseconds of an epoch-ms time, not before it. */
  private hrtimeOf(due: number): bigint {
    return process.hrtime.bigint() + BigInt(Math.max(0, Math.ceil((due - nowMs()) * 1e6)));
  }

  /** Publishes the alarm expected after the current one (NaN: none). */
  private announce(then: number): void {
    this.thenDue = then;
    this.thenNs = Number.isNaN(then) ? 0n : this.hrtimeOf(then);
    Atomics.store(this.slots, THEN, this.thenNs);
  }

  private changed(): void {
    Atomics.add(this.words, SEQ, 1);
    Atomics.notify(this.words, SEQ);
  }

  /** One pending waitAsync on FIRED while an alarm is set on the helper. */
  private listen(): void {
    if (this.listening || !this.online) return;
    this.listening = true;
    const result = Atomics.waitAsync(this.words, FIRED, -1);
    if (result.async) void result.value.then(this.woken);
    // Already fired: still answered on a later turn, never inside set().
    else queueMicrotask(this.woken);
  }

  private readonly woken = (): void => {
    this.listening = false;
    // A fire of an alarm since replaced is stale: the helper is already sleeping for the new one.
    if (Atomics.exchange(this.words, FIRED, -1) === Atomics.load(this.words, SEQ)) this.deliver();
    if (this.fire) this.listen();
  };

  private deliver(): void {
    const fire = this.fire;
    this.fire = undefined;
    fire?.();
  }
}
