// The event-loop lag probe behind bench_event_loop_lag: the longest a thread's event loop was late, per window.
// perf_hooks.monitorEventLoopDelay records the whole interval between its timer's ticks, so an idle loop probed
// every 10 ms reads 10 ms; the lag is what exceeds the probe's own interval.
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** Lag in ms from a histogram maximum (ns) of a probe ticking every `resolutionMs`: never negative. */
export function lagMs(maxNs: number, resolutionMs: number): number {
  return Math.max(0, maxNs / 1e6 - resolutionMs);
}

export class LoopLagProbe {
  private readonly histogram: IntervalHistogram;

  /** A coarser resolution wakes the thread less often and measures lag to within that resolution. */
  constructor(private readonly resolutionMs: number) {
    this.histogram = monitorEventLoopDelay({ resolution: resolutionMs });
    this.histogram.enable();
  }

  /** The largest lag (ms) since the previous call (or since the probe started). */
  take(): number {
    const lag = lagMs(this.histogram.max, this.resolutionMs);
    this.histogram.reset();
    return lag;
  }

  stop(): void {
    this.histogram.disable();
  }
}

/**
 * For a worker thread: publishes its event-loop lag every 100 ms into `slots[index]` as a running maximum (µs) that
 * the main thread takes (and resets) with takePublishedLag once a second.
 */
export function publishLoopLag(slots: Int32Array, index: number, resolutionMs: number): void {
  const probe = new LoopLagProbe(resolutionMs);
  setInterval(() => {
    const us = Math.round(probe.take() * 1000);
    if (us > Atomics.load(slots, index)) Atomics.store(slots, index, us);
  }, 100).unref();
}

/** The largest lag (ms) a worker published into `slots[index]` since the previous call. */
export function takePublishedLag(slots: Int32Array, index: number): number {
  return Atomics.exchange(slots, index, 0) / 1000;
}
