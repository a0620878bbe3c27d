// Intended start offsets (ms from scenario start) of both arrival-rate executors (pure).
//
// constant-arrival-rate: start i at i * timeUnit / rate, the first at 0, while the offset is < duration.
// ramping-arrival-rate: the rate r(t) is piecewise linear (startRate, then each stage's target over its duration,
// all per timeUnit); start n (n = 1, 2, ...) happens when the area A(t) = ∫ r reaches n. Inside a stage running
// from r0 to r1 over D, the area after t is r0·t + (r1 − r0)·t²/(2D), so for a remaining area a:
//   r1 = r0:  t = a / r0
//   else:     t = (−r0 + sqrt(r0² + 2·(r1 − r0)·a / D)) · D / (r1 − r0)
// Fractions of an iteration carry over stage boundaries.
import type { Stage } from './stages';

/** The fields of constant-arrival-rate's config the schedule reads (ms). */
export interface ConstantArrivalSchedule {
  executor: 'constant-arrival-rate';
  rate: number;
  timeUnit: number;
  duration: number;
}

/** The fields of ramping-arrival-rate's config the schedule reads (ms; stage targets are rates per timeUnit). */
export interface RampingArrivalSchedule {
  executor: 'ramping-arrival-rate';
  startRate: number;
  timeUnit: number;
  stages: Stage[];
}

export type ArrivalSchedule = ConstantArrivalSchedule | RampingArrivalSchedule;

export function* constantArrivalStarts(c: Omit<ConstantArrivalSchedule, 'executor'>) {
  for (let i = 0; ; i++) {
    const at = (i * c.timeUnit) / c.rate;
    if (at >= c.duration) return;
    yield at;
  }
}

export function* rampingArrivalStarts(c: Omit<RampingArrivalSchedule, 'executor'>): Generator<number> {
  let stageStart = 0;
  let r0 = c.startRate / c.timeUnit; // iterations per ms
  let areaBefore = 0; // iterations accumulated before this stage
  let n = 1;
  for (const stage of c.stages) {
    const r1 = stage.target / c.timeUnit;
    const D = stage.duration;
    if (D === 0) {
      r0 = r1;
      continue;
    }
    const stageArea = ((r0 + r1) / 2) * D;
    // Tolerance avoids losing a start that lands exactly on a stage boundary to rounding.
    while (n - areaBefore <= stageArea + 1e-9) {
      const a = n - areaBefore;
      let t: number;
      if (Math.abs(r1 - r0) < 1e-15) t = a / r0;
      else t = ((-r0 + Math.sqrt(Math.max(0, r0 * r0 + (2 * (r1 - r0) * a) / D))) * D) / (r1 - r0);
      if (t >= D) break;
      yield stageStart + t;
      n++;
    }
    areaBefore += stageArea;
    stageStart += D;
    r0 = r1;
  }
}

export function arrivalStarts(c: ArrivalSchedule): Generator<number> {
  return c.executor === 'constant-arrival-rate' ? constantArrivalStarts(c) : rampingArrivalStarts(c);
}

/**
 * Random access into the same schedule: start offset (ms) of iteration `index` (0-based), or Infinity past the
 * end. VUs use it to claim iterations by number without a central clock; it matches the generators above.
 */
export function arrivalOffsetOf(c: ArrivalSchedule): (index: number) => number {
  if (c.executor === 'constant-arrival-rate') {
    return (index) => {
      const at = (index * c.timeUnit) / c.rate;
      return at < c.duration ? at : Number.POSITIVE_INFINITY;
    };
  }
  const stages: Array<{ start: number; D: number; r0: number; r1: number; before: number; area: number }> =
    [];
  let start = 0;
  let r0 = c.startRate / c.timeUnit;
  let before = 0;
  for (const s of c.stages) {
    const r1 = s.target / c.timeUnit;
    if (s.duration > 0) {
      const area = ((r0 + r1) / 2) * s.duration;
      stages.push({ start, D: s.duration, r0, r1, before, area });
      before += area;
      start += s.duration;
    }
    r0 = r1;
  }
  return (index) => {
    const n = index + 1;
    for (const st of stages) {
      const a = n - st.before;
      if (a > st.area + 1e-9) continue;
      let t: number;
      if (Math.abs(st.r1 - st.r0) < 1e-15) t = a / st.r0;
      else
        t =
          ((-st.r0 + Math.sqrt(Math.max(0, st.r0 * st.r0 + (2 * (st.r1 - st.r0) * a) / st.D))) * st.D) /
          (st.r1 - st.r0);
      if (t < st.D) return st.start + Math.max(0, t);
    }
    return Number.POSITIVE_INFINITY;
  };
}
