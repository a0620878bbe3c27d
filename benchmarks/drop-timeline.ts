// Where a runner run's dropped starts and slow requests fell, second by second, against what the machine did in the
// same second (benchmarks/bench-runner.ts with BENCH_TIMELINE=1): its steal share, and the longest time one of its CPUs
// could not run a thread that asked for it (benchmarks/stall-probe/main.go).
import type { MachineTicks } from './proc-stats';

/** One second of the measured window. */
export interface Second {
  drops: number;
  requests: number;
  /** Requests slower than the bound the timeline was made with. */
  slow: number;
  /** The machine's steal share in this second (0 to 1); NaN when /proc/stat could not be read. */
  steal: number;
  /** The longest stall the probe saw end in this second or in the 50 ms before it (ms; 0: none). */
  stallMs: number;
}

/** A probe's stall: when it ended (epoch ms) and how late its CPU woke up. */
export interface Stall {
  at: number;
  lateMs: number;
}

/**
 * A stall's drops are counted when the VUs run again, after the stall ended: up to the slack of the VU pool later
 * (10 ms at 2000/s with 20 VUs), and a few ms more for the iterations in flight. A second counts the stalls that
 * ended this long before it too.
 */
const STALL_REACH_MS = 50;

/** The part of a k6 JSON-output line (`--out json`) a timeline reads. */
export interface JsonPoint {
  type: string;
  metric: string;
  data: { time: string; value: number };
}

/** Seconds from `t0` (epoch ms), filled from JSON-output points; points before t0 or past the window are left out. */
export class Timeline {
  readonly seconds: Second[];

  constructor(
    private readonly t0: number,
    length: number,
    private readonly slowMs: number,
  ) {
    this.seconds = Array.from({ length }, () => ({
      drops: 0,
      requests: 0,
      slow: 0,
      steal: Number.NaN,
      stallMs: 0,
    }));
  }

  add(p: JsonPoint): void {
    if (p.type !== 'Point') return;
    const s = this.seconds[Math.floor((Date.parse(p.data.time) - this.t0) / 1000)];
    if (!s) return;
    if (p.metric === 'dropped_iterations') s.drops += p.data.value;
    else if (p.metric === 'http_req_duration') {
      s.requests++;
      if (p.data.value > this.slowMs) s.slow++;
    }
  }

  /** Each second's steal share from /proc/stat readings taken during the run (`at`: epoch ms, in order). */
  setSteal(readings: { at: number; ticks: MachineTicks }[]): void {
    this.seconds.forEach((s, i) => {
      const from = this.t0 + i * 1000;
      const first = readings.findLast((r) => r.at <= from);
      const last = readings.find((r) => r.at >= from + 1000);
      if (first && last)
        s.steal = (last.ticks.steal - first.ticks.steal) / (last.ticks.total - first.ticks.total);
    });
  }

  /** Each second's longest stall from the probe's reports. */
  setStalls(stalls: Stall[]): void {
    this.seconds.forEach((s, i) => {
      const from = this.t0 + i * 1000 - STALL_REACH_MS;
      const to = this.t0 + (i + 1) * 1000;
      for (const stall of stalls)
        if (stall.at >= from && stall.at < to) s.stallMs = Math.max(s.stallMs, stall.lateMs);
    });
  }
}

/** Parses the probe's lines, "<epoch ms> <cpu> <late ms>"; others are left out. */
export function parseStalls(text: string): Stall[] {
  const stalls: Stall[] = [];
  for (const line of text.split('\n')) {
    const [at, cpu, late] = line.trim().split(' ').map(Number);
    if (Number.isFinite(at) && Number.isInteger(cpu) && Number.isFinite(late))
      stalls.push({ at, lateMs: late });
  }
  return stalls;
}

export interface SecondsGroup {
  seconds: number;
  drops: number;
  requests: number;
  slow: number;
}

/** A second counts as stalled from a steal share or a CPU stall at or above these. */
export interface StallBounds {
  steal: number;
  stallMs: number;
}

/**
 * The test's first second (every VU's first request, its connection, code not yet optimised), the seconds in which a
 * CPU was unavailable for long (steal or a stall at the bounds), and the rest.
 */
export function splitSeconds(
  seconds: Second[],
  bounds: StallBounds,
): { start: SecondsGroup; stalled: SecondsGroup; rest: SecondsGroup } {
  const stalled = (s: Second) => s.steal >= bounds.steal || s.stallMs >= bounds.stallMs;
  const group = (keep: (s: Second, i: number) => boolean): SecondsGroup => {
    const picked = seconds.filter(keep);
    const sum = (f: (s: Second) => number) => picked.reduce((a, s) => a + f(s), 0);
    return {
      seconds: picked.length,
      drops: sum((s) => s.drops),
      requests: sum((s) => s.requests),
      slow: sum((s) => s.slow),
    };
  };
  return {
    start: group((_, i) => i === 0),
    stalled: group((s, i) => i > 0 && stalled(s)),
    rest: group((s, i) => i > 0 && !stalled(s)),
  };
}
