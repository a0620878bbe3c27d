// Intended start offsets (ms from scenario start) of both arrival-rate executors (pure).
//
// constant-arrival-rate: start i at i * timeUnit / rate, the first at 0, while the offset is < duration.
// ramping-arrival-rate: the rate r(t) is piecewise linear (startRate, then each stage's target over its duration,
// all per timeUnit); start n (n = 1, 2, ...) happens when the area A(t) = ∫ r reaches n. Inside a stage running
// from r0 to r1 over D, the area after t is r0·t + (r1 − r0)·t²/(2D), so for a remaining area a:
//   r1 = r0:  t = a / r0
//   else:     t = (−r0 + sqrt(r0² + 2·(r1 − r0)·a / D)) · D / (r1 − r0)
// Fractions of an iteration carry over stage boundaries.
import type { ConstantArrivalRateConfig } from './constant-arrival-rate';
import type { RampingArrivalRateConfig } from './ramping-arrival-rate';

export function* constantArrivalStarts(c: Pick<ConstantArrivalRateConfig, 'rate' | 'timeUnit' | 'duration'>) {
  for (let i = 0; ; i++) {
    const at = (i * c.timeUnit) / c.rate;
    if (at >= c.duration) return;
    yield at;
  }
}

export function* rampingArrivalStarts(
  c: Pick<RampingArrivalRateConfig, 'startRate' | 'timeUnit' | 'stages'>,
): Generator<number> {
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

export function arrivalStarts(c: ConstantArrivalRateConfig | RampingArrivalRateConfig): Generator<number> {
  return c.executor === 'constant-arrival-rate' ? constantArrivalStarts(c) : rampingArrivalStarts(c);
}
