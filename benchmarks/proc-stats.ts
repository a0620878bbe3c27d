// What another process costs while a benchmark runs, read from /proc (Linux; NaN elsewhere): CPU per thread, thread
// wake-ups, resident memory, and the machine's steal share (benchmarks/bench-runner.ts, benchmarks/bench-emulator.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { statCpuMs, threadCpuMs } from '../emulator/process/thread-cpu';

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
  private peakKb = Number.NaN;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => {
      const cpu = cpuSeconds(this.pid);
      if (Number.isNaN(cpu)) return;
      // VmHWM only grows: the last reading before the process exits is its peak (to within one interval).
      const hwm = statusKb(this.pid, 'VmHWM');
      if (!Number.isNaN(hwm)) this.peakKb = Number.isNaN(this.peakKb) ? hwm : Math.max(this.peakKb, hwm);
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

  /** The machine's /proc/stat ticks at each sample (epoch ms), in order. */
  machineReadings(): { at: number; ticks: MachineTicks }[] {
    return this.samples.map((s) => ({ at: s.time, ticks: s.machine }));
  }

  /** The process's peak resident set size (VmHWM) as last read, in bytes (NaN without /proc). */
  get peakRssBytes(): number {
    return this.peakKb * 1024;
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

/** One `Name: N kB` field of /proc/<pid>/status (VmRSS, VmHWM), NaN when it cannot be read. */
export function statusKb(pid: number, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : Number.NaN;
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
