// A one-shot alarm with sub-millisecond precision for a thread's event loop, made of two sleeping threads. Node's timers
// fire on whole milliseconds of a cached loop time (up to a millisecond early or late), so they cannot place an
// arrival-rate start; Atomics.wait sleeps in the kernel to the microsecond, but blocks its thread. Here a tiny helper
// thread (one per Clock) does the Atomics.wait until the alarm's time, or until the alarm changes, and then wakes
// this thread's event loop through Atomics.waitAsync. Nothing spins: both threads sleep until the instant.
import { Worker } from 'node:worker_threads';
import { nowMs } from '../control-block';

/** Int32 words after the 8-byte due slot. */
const SEQ = 0; // bumped whenever the alarm changes
const FIRED = 1; // the SEQ value of the alarm the helper fired, -1 when none is waiting to be seen

/**
 * The helper thread: sleeps until the current alarm (process.hrtime.bigint() nanoseconds in the BigInt64 slot: the one
 * monotonic clock all threads share; 0 for none) or until SEQ moves, fires by storing the alarm's SEQ in FIRED, then
 * sleeps until the next change.
 */
const HELPER = `
const { workerData } = require('node:worker_threads');
const due = new BigInt64Array(workerData, 0, 1);
const words = new Int32Array(workerData, 8, 2);
for (;;) {
  const seq = Atomics.load(words, ${SEQ});
  const at = Atomics.load(due, 0);
  const left = Number(at - process.hrtime.bigint()) / 1e6;
  if (at === 0n) Atomics.wait(words, ${SEQ}, seq);
  else if (left > 0) Atomics.wait(words, ${SEQ}, seq, left);
  else {
    Atomics.store(words, ${FIRED}, seq);
    Atomics.notify(words, ${FIRED});
    Atomics.wait(words, ${SEQ}, seq);
  }
}
`;

export class Clock {
  private readonly deadline: BigInt64Array;
  private readonly words: Int32Array;
  private readonly helper: Worker;
  private listening = false;
  private fire: (() => void) | undefined;
  /** Until the helper runs (its start takes tens of ms, hundreds on a loaded machine) alarms are Node timers. */
  private online = false;
  private due = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor() {
    const shared = new SharedArrayBuffer(16);
    this.deadline = new BigInt64Array(shared, 0, 1);
    this.words = new Int32Array(shared, 8, 2);
    Atomics.store(this.words, FIRED, -1);
    // The helper only sleeps and stores a word: the smallest heaps V8 allows are plenty.
    this.helper = new Worker(HELPER, {
      eval: true,
      workerData: shared,
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1, stackSizeMb: 1 },
    });
    // It must not keep a thread that has nothing else to do alive.
    this.helper.unref();
    this.helper.once('online', () => {
      this.online = true;
      if (this.timer === undefined) return;
      // The alarm set meanwhile moves to the helper.
      clearTimeout(this.timer);
      this.timer = undefined;
      if (this.fire) this.set(this.due, this.fire);
    });
  }

  /** Calls `fire` once at `due` (epoch ms, nowMs()), not before; replaces the alarm set before, if any. */
  set(due: number, fire: () => void): void {
    this.fire = fire;
    this.due = due;
    if (!this.online) {
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
    const wait = Math.max(0, Math.ceil((due - nowMs()) * 1e6));
    Atomics.store(this.deadline, 0, process.hrtime.bigint() + BigInt(wait));
    this.changed();
    this.listen();
  }

  cancel(): void {
    if (!this.fire) return;
    this.fire = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    Atomics.store(this.deadline, 0, 0n);
    this.changed();
  }

  /** Stops the helper thread. */
  close(): Promise<number> {
    this.fire = undefined;
    return this.helper.terminate();
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
