// What k6's drop rule would have made of vegeta's own run (benchmarks/bench-runner.ts): vegeta never drops a start (it
// adds workers and sends late), so its dropped count is 0 by construction and says nothing about the machine. Its
// results do record when each hit started and how long it took, so the same run can be replayed through the rule
// bench and k6 apply: a start is dropped when none of the scenario's VUs is free at its due time. A hit vegeta sent
// late because its process was not running keeps its VU busy until it ends, so starts due meanwhile find no VU free
// and count as dropped, as they would in bench: the runner's drops become comparable with the peer's machine time.
import { percentile } from '../lib/filter-cost/quantile-ci';

/** One hit of a vegeta attack: its sequence number, when it began (epoch ms) and its latency (ms). */
export interface Hit {
  seq: number;
  startMs: number;
  latencyMs: number;
}

export interface Replay {
  /** Starts no VU of the pool was free for at their due time. */
  dropped: number;
  /** How late the hits began against their intended times (ms; see replayUnderK6Rule for the origin). */
  lagP50: number;
  lagP99: number;
  lagMax: number;
}

/** The fields of one line of `vegeta encode --to json` this replay reads. */
interface VegetaJsonResult {
  seq: number;
  timestamp: string;
  latency: number;
}

/**
 * Parses `vegeta encode --to json` output. Its timestamps are RFC 3339 with nanoseconds, which Date.parse would cut
 * to whole milliseconds: at 2000/s the interval is half of one, so the fraction is read separately.
 */
export function parseVegetaJson(text: string): Hit[] {
  const hits: Hit[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line) as VegetaJsonResult;
    const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(r.timestamp);
    if (!m) throw new Error(`vegeta result ${r.seq}: unreadable timestamp ${JSON.stringify(r.timestamp)}`);
    const fraction = m[2] ? Number(`0.${m[2]}`) * 1000 : 0;
    hits.push({ seq: r.seq, startMs: Date.parse(`${m[1]}${m[3]}`) + fraction, latencyMs: r.latency / 1e6 });
  }
  return hits;
}

/**
 * Replays hits sent at `rate` per second through k6's drop rule with `vus` VUs. Hit `seq` was due at t0 + seq /
 * rate. vegeta's results do not record t0, so it is the origin 99% of the hits began at or after (the 1st percentile
 * of startMs - seq / rate), which no one hit's jitter moves: a punctual hit has a lag of about 0, and any later origin
 * would only make vegeta look more punctual and drop less. A VU is busy from a hit's start to its end; a start
 * whose due time comes before the earliest VU is free is dropped and occupies no VU, as in bench's arrival-rate
 * executors.
 */
export function replayUnderK6Rule(hits: readonly Hit[], rate: number, vus: number): Replay {
  if (hits.length === 0) return { dropped: 0, lagP50: Number.NaN, lagP99: Number.NaN, lagMax: Number.NaN };
  const interval = 1000 / rate;
  const bySeq = [...hits].sort((a, b) => a.seq - b.seq);
  const origins = bySeq.map((h) => h.startMs - h.seq * interval).sort((a, b) => a - b);
  const t0 = percentile(origins, 0.01) ?? origins[0];
  // Free times of the pool's VUs; a linear scan for the earliest is cheap at k6's usual pool sizes.
  const freeAt = new Array<number>(vus).fill(Number.NEGATIVE_INFINITY);
  const lags: number[] = [];
  let dropped = 0;
  for (const h of bySeq) {
    const due = t0 + h.seq * interval;
    lags.push(h.startMs - due);
    let earliest = 0;
    for (let v = 1; v < vus; v++) if (freeAt[v] < freeAt[earliest]) earliest = v;
    if (freeAt[earliest] > due) {
      dropped++;
      continue;
    }
    freeAt[earliest] = h.startMs + h.latencyMs;
  }
  lags.sort((a, b) => a - b);
  return {
    dropped,
    lagP50: percentile(lags, 0.5) ?? Number.NaN,
    lagP99: percentile(lags, 0.99) ?? Number.NaN,
    lagMax: lags[lags.length - 1],
  };
}
