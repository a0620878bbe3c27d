// Where a runner run's dropped starts and slow requests fell, second by second, against the machine's steal share in
// the same second (scripts/bench-runner.ts with BENCH_TIMELINE=1): whether the drops follow the code or the machine.
import type { MachineTicks } from './proc-stats';

/** One second of the measured window. */
export interface Second {
  drops: number;
  requests: number;
  /** Requests slower than the bound the timeline was made with. */
  slow: number;
  /** The machine's steal share in this second (0 to 1); NaN when /proc/stat could not be read. */
  steal: number;
}

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
    this.seconds = Array.from({ length }, () => ({ drops: 0, requests: 0, slow: 0, steal: Number.NaN }));
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
}

export interface StealGroup {
  seconds: number;
  drops: number;
  requests: number;
  slow: number;
}

/** Splits the seconds at a steal share: those below it (the machine ran this VM's work) and the others. */
export function splitBySteal(
  seconds: Second[],
  threshold: number,
): { quiet: StealGroup; stolen: StealGroup } {
  const group = (keep: (s: Second) => boolean): StealGroup => {
    const picked = seconds.filter((s) => !Number.isNaN(s.steal) && keep(s));
    const sum = (f: (s: Second) => number) => picked.reduce((a, s) => a + f(s), 0);
    return {
      seconds: picked.length,
      drops: sum((s) => s.drops),
      requests: sum((s) => s.requests),
      slow: sum((s) => s.slow),
    };
  };
  return { quiet: group((s) => s.steal < threshold), stolen: group((s) => s.steal >= threshold) };
}
