// The event-loop lag probe behind bench_event_loop_lag: how late a thread's event loop ran the probe's timer, the
// largest per window. It ticks every 20 ms while its thread works, and once a second while the thread idles (its
// event loop was active less than 1 ms since the previous tick): a probe that kept ticking every few milliseconds
// woke an idle runner's threads hundreds of times a second, which on a VM costs more CPU than a slow test's requests.
// Node's timers fire on whole milliseconds, so up to about 1 ms of what it reads is the timer's own granularity.
import { performance } from 'node:perf_hooks';

export interface LoopLagIntervals {
  /** ms between ticks while the thread works. */
  busyMs: number;
  /** ms between ticks while it idles. */
  idleMs: number;
  /** The thread's event-loop active time so far, ms (tests pass their own). */
  activeMs?: () => number;
}

const DEFAULT_INTERVALS: LoopLagIntervals = { busyMs: 20, idleMs: 1000 };
const eventLoopActiveMs = () => performance.eventLoopUtilization().active;
/** Less event-loop activity than this between two ticks (the probe's own is microseconds) counts as idle. */
const IDLE_ACTIVE_MS = 1;

export class LoopLagProbe {
  private max = 0;
  private expected = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly activeMs: () => number;
  private active: number;
  /** Ticks so far (for tests). */
  ticks = 0;

  /** @param publish called with each new largest lag (ms) of the current window */
  constructor(
    private readonly publish?: (lagMs: number) => void,
    private readonly intervals: LoopLagIntervals = DEFAULT_INTERVALS,
  ) {
    this.activeMs = intervals.activeMs ?? eventLoopActiveMs;
    this.active = this.activeMs();
    this.arm(intervals.busyMs);
  }

  /** The largest lag (ms) since the previous call (or since the probe started). */
  take(): number {
    const lag = this.max;
    this.max = 0;
    return lag;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.expected = performance.now() + ms;
    this.timer = setTimeout(this.tick, ms);
    // The probe never keeps its thread alive.
    this.timer.unref();
  }

  private readonly tick = (): void => {
    this.ticks++;
    const late = Math.max(0, performance.now() - this.expected);
    if (late > this.max) {
      this.max = late;
      this.publish?.(late);
    }
    const active = this.activeMs();
    const busy = active - this.active >= IDLE_ACTIVE_MS;
    this.active = active;
    if (this.timer !== undefined) this.arm(busy ? this.intervals.busyMs : this.intervals.idleMs);
  };
}

/**
 * For a worker thread: keeps its largest event-loop lag in `slots[index]` as a running maximum (µs) that the main
 * thread takes (and resets) with takePublishedLag once a second.
 */
export function publishLoopLag(slots: Int32Array, index: number): void {
  new LoopLagProbe((lag) => {
    const us = Math.round(lag * 1000);
    if (us > Atomics.load(slots, index)) Atomics.store(slots, index, us);
  });
}

/** The largest lag (ms) a worker published into `slots[index]` since the previous call. */
export function takePublishedLag(slots: Int32Array, index: number): number {
  return Atomics.exchange(slots, index, 0) / 1000;
}
