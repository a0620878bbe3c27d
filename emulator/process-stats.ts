// The emulator process's own figures for benchmarks (GET /_emulator/stats): resident memory and how long the event
// loop was blocked, so a stall can be told apart from CPU contention on a shared machine.
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

let histogram: IntervalHistogram | null = null;

/** Starts sampling event-loop delay (10 ms resolution). Idempotent. */
export function startLoopMonitor(): void {
  if (histogram) return;
  histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
}

export function stopLoopMonitor(): void {
  histogram?.disable();
  histogram = null;
}

const ms = (ns: number) => Math.round(ns / 1e4) / 100;

/** Current figures; `reset` starts a new event-loop delay window afterwards. */
export function processStats(reset: boolean): Record<string, unknown> {
  const memory = process.memoryUsage();
  const loop = histogram
    ? {
        p50_ms: ms(histogram.percentile(50)),
        p99_ms: ms(histogram.percentile(99)),
        max_ms: ms(histogram.max),
      }
    : null;
  if (reset) histogram?.reset();
  return {
    rss_bytes: memory.rss,
    heap_used_bytes: memory.heapUsed,
    array_buffers_bytes: memory.arrayBuffers,
    event_loop_delay: loop,
  };
}
