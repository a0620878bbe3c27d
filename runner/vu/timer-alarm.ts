// The alarm of a host thread's start scheduler (./hosted-starts.ts): one Node timer, never early. Node's timers tick
// in whole milliseconds of a cached loop time, so a start waits up to about a millisecond past its time and the
// starts due within one tick go together; Go's runtime, which times k6's and vegeta's starts, also sleeps in whole
// milliseconds (its netpoller rounds a shorter wait up to 1 ms). Sub-millisecond alarms need a second thread to
// sleep and wake this one (a helper in Atomics.wait waking it through Atomics.waitAsync, the clock this file
// replaced): a thread wake-up per start, which on a 2-core VM cost a large share of a request's CPU
// (docs/runner-measurements.md §4.3).
import { nowMs } from '../control-block';

export class TimerAlarm {
  private timer: NodeJS.Timeout | undefined;
  private due = 0;
  private fire: (() => void) | undefined;

  /** Calls `fire` once at `due` (epoch ms, nowMs()) or later, never before; replaces the alarm set before, if any. */
  set(due: number, fire: () => void): void {
    this.fire = fire;
    if (this.timer !== undefined && due === this.due) return;
    this.due = due;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onTime, Math.max(0, Math.ceil(due - nowMs())));
  }

  cancel(): void {
    this.fire = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A timer measures from the loop's cached time, so it may fire before `due` by real time: then it waits again. */
  private readonly onTime = (): void => {
    this.timer = undefined;
    const left = this.due - nowMs();
    if (left > 0) {
      this.timer = setTimeout(this.onTime, Math.ceil(left));
      return;
    }
    const fire = this.fire;
    this.fire = undefined;
    fire?.();
  };
}
