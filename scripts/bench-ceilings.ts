// What bounds a load generator on this machine, measured against the same loopback endpoint as the runner (for
// scripts/bench-runner.ts): autocannon unthrottled, raw undici in one thread, and the CPU a process spends per request.
// Every loop here is bounded by its duration and sends only to the loopback URL it is given.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Pool } from 'undici';
import { statCpuMs, threadCpuMs } from '../emulator/thread-cpu';
import { TrendSink } from '../runner/metrics/sinks';

export interface Ceiling {
  /** Requests completed per second. */
  rate: number;
  /** This process's CPU (user + system) per request, µs. */
  cpuUs: number;
  /** Voluntary context switches (thread wake-ups) of this process's threads per request (NaN without /proc). */
  switches: number;
  p50: number;
  p99: number;
}

interface AutocannonResult {
  requests: { total: number };
  duration: number;
}

// autocannon ships no types; only run() and the 'response' event are used.
type Autocannon = (
  opts: Record<string, unknown>,
  cb: (err: Error | null, res: AutocannonResult) => void,
) => { on(event: 'response', fn: (c: unknown, status: number, bytes: number, ms: number) => void): void };

/** autocannon in this process: at `rate` requests/s overall, or as fast as it goes when `rate` is undefined. */
export async function autocannon(
  url: string,
  seconds: number,
  connections: number,
  rate?: number,
): Promise<Ceiling> {
  const run = createRequire(import.meta.url)('autocannon') as Autocannon;
  const latencies = new TrendSink();
  const before = contextSwitches(process.pid);
  const cpu = process.cpuUsage();
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    const options = { url, connections, duration: seconds, ...(rate ? { overallRate: rate } : {}) };
    const instance = run(options, (err, res) => (err ? reject(err) : resolve(res)));
    instance.on('response', (_c, _status, _bytes, ms) => latencies.add(ms));
  });
  const used = process.cpuUsage(cpu);
  const requests = Math.max(1, result.requests.total);
  return {
    rate: result.requests.total / result.duration,
    cpuUs: (used.user + used.system) / requests,
    switches: (contextSwitches(process.pid) - before) / requests,
    p50: latencies.percentile(50),
    p99: latencies.percentile(99),
  };
}

/** undici's request API awaited in this thread, `connections` requests in flight on one pool, for `seconds`. */
export async function rawUndici(url: string, seconds: number, connections: number): Promise<Ceiling> {
  const { origin, pathname } = new URL(url);
  const pool = new Pool(origin, { connections });
  const latencies = new TrendSink();
  const get = async () => {
    const res = await pool.request({ path: pathname, method: 'GET' });
    await res.body.dump();
  };
  try {
    for (let i = 0; i < 200; i++) await get(); // connection and JIT warm-up
    const before = contextSwitches(process.pid);
    const cpu = process.cpuUsage();
    const start = performance.now();
    const end = start + seconds * 1000;
    let done = 0;
    const loop = async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await get();
        latencies.add(performance.now() - t);
        done++;
      }
    };
    await Promise.all(Array.from({ length: connections }, loop));
    const elapsed = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    return {
      rate: done / elapsed,
      cpuUs: (used.user + used.system) / Math.max(1, done),
      switches: (contextSwitches(process.pid) - before) / Math.max(1, done),
      p50: latencies.percentile(50),
      p99: latencies.percentile(99),
    };
  } finally {
    await pool.close();
  }
}

/**
 * How late a thread wakes from a timed Atomics.wait (how a VU sleeps until a claimed start): p50/p99 overshoot in ms
 * over `count` waits of `ms` each, on this otherwise idle thread. It bounds the start lag a VU can achieve.
 */
export function sleepOvershoot(count: number, ms: number): { p50: number; p99: number } {
  const word = new Int32Array(new SharedArrayBuffer(4));
  const late = new TrendSink();
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    Atomics.wait(word, 0, 0, ms);
    late.add(performance.now() - start - ms);
  }
  return { p50: late.percentile(50), p99: late.percentile(99) };
}

interface CpuSample {
  time: number;
  cpu: number;
  switches: number;
  machine: MachineTicks;
  /** CPU ms so far of each of the process's threads, by thread id. */
  threads: Map<string, number>;
}

/**
 * CPU seconds (user + system), context switches and per-thread CPU of another process over time, sampled every 100 ms
 * from /proc (Linux only; elsewhere `between` returns NaNs).
 */
export class CpuSampler {
  private readonly samples: CpuSample[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => {
      const cpu = cpuSeconds(this.pid);
      if (Number.isNaN(cpu)) return;
      this.samples.push({
        time: Date.now(),
        cpu,
        switches: contextSwitches(this.pid),
        machine: machineTicks(),
        threads: cpuByThread(this.pid),
      });
    }, 100);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * Between two epoch-ms instants (scaled from the samples inside the window): CPU seconds and context switches, the
   * machine's steal share (the time the hypervisor ran something else while this VM's CPUs had work), and the share of
   * the window the process's busiest thread was on a CPU (near 1, that one thread is the limit whatever the other CPUs
   * do).
   */
  between(from: number, to: number): { cpu: number; switches: number; steal: number; busiestThread: number } {
    const inside = this.samples.filter((s) => s.time >= from && s.time <= to);
    if (inside.length < 2)
      return {
        cpu: Number.NaN,
        switches: Number.NaN,
        steal: Number.NaN,
        busiestThread: Number.NaN,
      };
    const first = inside[0];
    const last = inside[inside.length - 1];
    const scale = (to - from) / (last.time - first.time);
    let busiest = 0;
    for (const [tid, ms] of last.threads) busiest = Math.max(busiest, ms - (first.threads.get(tid) ?? ms));
    return {
      cpu: (last.cpu - first.cpu) * scale,
      switches: (last.switches - first.switches) * scale,
      steal: stealShare(first.machine, last.machine),
      busiestThread: busiest / (last.time - first.time),
    };
  }
}

/** The machine's CPU ticks so far (all CPUs), and how many of them were stolen; NaN without /proc. */
export interface MachineTicks {
  total: number;
  steal: number;
}

/** The share of the machine's CPU time the hypervisor stole between two readings (NaN without /proc). */
export function stealShare(from: MachineTicks, to: MachineTicks): number {
  return (to.steal - from.steal) / (to.total - from.total);
}

/** First line of /proc/stat: user nice system idle iowait irq softirq steal ... (proc(5)). */
export function machineTicks(): MachineTicks {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] };
  } catch {
    return { total: Number.NaN, steal: Number.NaN };
  }
}

/**
 * Voluntary context switches (a thread blocked: waiting for a message, a reply, a timer or a lock) of all threads of a
 * process so far; NaN without /proc. Involuntary ones (preemption) depend on the machine's other load, so they are
 * left out.
 */
export function contextSwitches(pid: number): number {
  try {
    let total = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const status = readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
      total += Number(/^voluntary_ctxt_switches:\s+(\d+)$/m.exec(status)?.[1] ?? Number.NaN);
    }
    return total;
  } catch {
    return Number.NaN;
  }
}

/** CPU ms so far of each thread of a process, by thread id (empty without /proc). */
export function cpuByThread(pid: number): Map<string, number> {
  const cpu = new Map<string, number>();
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const ms = threadCpuMs(Number(task), pid);
      // null: the thread ended between the listing and the read.
      if (ms !== null) cpu.set(task, ms);
    }
  } catch {
    // No /proc, or the process is gone.
  }
  return cpu;
}

/** utime + stime of a process in seconds, NaN when /proc is not there. */
export function cpuSeconds(pid: number): number {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8')) / 1000;
  } catch {
    return Number.NaN;
  }
}
