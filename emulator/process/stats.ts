// The emulator process's own figures for benchmarks (GET /_emulator/stats): resident memory, how long the event
// loop was blocked (so a stall can be told apart from CPU contention on a shared machine) and the CPU each thread has
// used (so a CPU-bound figure shows where the CPU went).
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { engineThreads } from '../vector/worker-pool';
import { threadCpuMs } from './thread-cpu';

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

/**
 * CPU milliseconds used so far by the request thread (`main`), each engine worker by role, and `other` (the rest of
 * the process: V8's GC helpers, libuv's pool); null where /proc cannot tell (not Linux). Read twice and subtract.
 */
function threadCpu(): Record<string, number> | null {
  const main = threadCpuMs(process.pid);
  if (main === null) return null;
  const usage = process.cpuUsage();
  const cpu: Record<string, number> = { main };
  let named = main;
  for (const { role, tid } of engineThreads()) {
    const ms = tid === null ? null : threadCpuMs(tid);
    if (ms === null) continue;
    cpu[role] = ms;
    named += ms;
  }
  // process.cpuUsage counts in microseconds, /proc in 10 ms ticks: never report a negative rest.
  cpu.other = Math.max(0, (usage.user + usage.system) / 1000 - named);
  return cpu;
}

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
    thread_cpu_ms: threadCpu(),
  };
}
