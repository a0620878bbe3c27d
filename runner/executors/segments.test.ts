import { describe, expect, it } from 'vitest';
import { arrivalOffsetOf, arrivalStarts } from './arrival-schedule';
import { executionPlan, planHeader } from './execution-plan';
import { describeScenario, executorOf, parseScenario, type ScenarioConfig } from './index';
import type { RampingVusConfig } from './ramping-vus';
import { rampingVusChanges, type VuCountChange } from './ramping-vus-schedule';
import {
  ExecutionTuple,
  parseSegment,
  parseSequence,
  segmentText,
  stripeCount,
  stripeItem,
  WHOLE,
} from './segments';

const THIRDS = '0,1/3,2/3,1';
const QUARTERS = '0,1/4,1/2,1';

function tuples(sequence: string): ExecutionTuple[] {
  const seq = parseSequence(sequence);
  return seq.map((s) => ExecutionTuple.of(s, seq));
}

function parse(raw: Record<string, unknown>): ScenarioConfig {
  const problems: string[] = [];
  const c = parseScenario('s', raw, problems);
  expect(problems).toEqual([]);
  return c as ScenarioConfig;
}

/** Each instance's part of the scenario (undefined: no work there). */
function parts(raw: Record<string, unknown>, sequence: string): Array<ScenarioConfig | undefined> {
  const c = parse(raw);
  return tuples(sequence).map((t) => executorOf(c).segment(c, t));
}

function field(ps: Array<ScenarioConfig | undefined>, key: string): number[] {
  return ps.map((p) => (p ? ((p as unknown as Record<string, number>)[key] ?? 0) : 0));
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The test-wide numbers of each instance's first `counts[i]` iterations. */
function iterationNumbers(ps: Array<ScenarioConfig | undefined>, counts: number[]): number[][] {
  return ps.map((p, i) =>
    Array.from({ length: counts[i] }, (_, k) => stripeItem(p?.part?.iterations ?? WHOLE, k)),
  );
}

function expectPartition(numbers: number[][], total: number): void {
  const all = numbers.flat().sort((a, b) => a - b);
  expect(all).toEqual(Array.from({ length: total }, (_, i) => i));
}

/** An arrival-rate part's start offsets: its stripe of the whole schedule, until the schedule ends. */
function startsOf(p: ScenarioConfig | undefined): number[] {
  if (!p || (p.executor !== 'constant-arrival-rate' && p.executor !== 'ramping-arrival-rate')) return [];
  const offsetOf = arrivalOffsetOf(p);
  const out: number[] = [];
  for (let k = 0; ; k++) {
    const at = offsetOf(stripeItem(p.starts ?? WHOLE, k));
    if (at === Number.POSITIVE_INFINITY) return out;
    out.push(at);
  }
}

describe('striping', () => {
  it("gives each segment the items k6's documentation lists for 0:1/2, 1/2:3/4, 3/4:1", () => {
    const [a, b, c] = tuples('0,1/2,3/4,1');
    const first = (t: ExecutionTuple) => Array.from({ length: 6 }, (_, k) => stripeItem(t.stripe(), k));
    expect(first(a)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(first(b)).toEqual([1, 5, 9, 13, 17, 21]);
    expect(first(c)).toEqual([3, 7, 11, 15, 19, 23]);
    const scaled = (t: ExecutionTuple) => Array.from({ length: 12 }, (_, v) => t.scale(v + 1));
    expect(scaled(a)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    expect(scaled(b)).toEqual([0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3]);
    expect(scaled(c)).toEqual([0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3]);
  });

  it.each([THIRDS, QUARTERS, '0,0.2,1/2,0.7,1', '0,1/7,3/11,1'])(
    'splits every count from 0 to 200 exactly among the segments of %s, each share growing with the count',
    (sequence) => {
      const ts = tuples(sequence);
      for (let v = 0; v <= 200; v++) {
        expect(sum(ts.map((t) => t.scale(v)))).toBe(v);
        for (const t of ts) {
          expect(stripeCount(t.stripe(), v)).toBe(t.scale(v));
          if (v > 0) expect(t.scale(v)).toBeGreaterThanOrEqual(t.scale(v - 1));
        }
      }
      expectPartition(
        ts.map((t) => Array.from({ length: t.scale(500) }, (_, k) => stripeItem(t.stripe(), k))),
        500,
      );
    },
  );

  it('completes a lone segment with the gaps around it', () => {
    const t = ExecutionTuple.of(parseSegment('1/3:2/3'), undefined);
    expect(t.sequence.map(segmentText)).toEqual(['0:1/3', '1/3:2/3', '2/3:1']);
    expect(t.index).toBe(1);
    expect(t.share).toBeCloseTo(1 / 3, 12);
  });
});

describe('parsing', () => {
  it('reads percentages, decimals, fractions and a lone end', () => {
    expect(segmentText(parseSegment('25%'))).toBe('0:1/4');
    expect(segmentText(parseSegment('0.2:2/3'))).toBe('1/5:2/3');
    expect(segmentText(parseSegment('50%:75%'))).toBe('1/2:3/4');
    expect(segmentText(parseSegment(''))).toBe('0:1');
    expect(parseSequence('0,25%,0.5,1').map(segmentText)).toEqual(['0:1/4', '1/4:1/2', '1/2:1']);
  });

  it('names the problem and the fix', () => {
    expect(() => parseSegment('2/3:1/3')).toThrow(
      "execution segment '2/3:1/3': the start 2/3 must be less than the end 1/3",
    );
    expect(() => parseSegment('0:3/2')).toThrow('beyond 1');
    expect(() => parseSegment('a third')).toThrow(
      'is not a percentage, decimal or fraction (write e.g. 25%, 0.25 or 1/4)',
    );
    expect(() => parseSequence('0')).toThrow('needs at least 2 points');
    expect(() => parseSequence('0,1/2,1/4,1')).toThrow('the start 1/2 must be less than the end 1/4');
    expect(() => ExecutionTuple.of(parseSegment('1/4:3/4'), parseSequence(THIRDS))).toThrow(
      "execution segment 1/4:3/4 is not one of the sequence's segments (0:1/3, 1/3:2/3, 2/3:1)",
    );
  });
});

describe.each([
  [THIRDS, { constantVus: [4, 3, 3], shared: { vus: [2, 1, 1], iterations: [5, 3, 2] } }],
  [QUARTERS, { constantVus: [3, 2, 5], shared: { vus: [1, 1, 2], iterations: [3, 2, 5] } }],
])('segments of %s', (sequence, expected) => {
  it('constant-vus: VUs split exactly', () => {
    const ps = parts({ executor: 'constant-vus', vus: 10, duration: '10s' }, sequence);
    expect(field(ps, 'vus')).toEqual(expected.constantVus);
    expect(ps.map((p) => p && describeScenario(p))).toEqual(
      expected.constantVus.map((v) => `${v} looping VUs for 10s (gracefulStop: 30s)`),
    );
    // Looping iterations have no total: each instance's first 100 numbers are disjoint and fill 0…m−1.
    const numbers = iterationNumbers(ps, [100, 100, 100]);
    expect(new Set(numbers.flat()).size).toBe(300);
    const m = Math.min(...numbers.map((n) => n[n.length - 1]));
    expect(numbers.flat().filter((n) => n <= m).length).toBe(m + 1);
  });

  it('per-vu-iterations: VUs split, each VU keeps its iterations', () => {
    const ps = parts({ executor: 'per-vu-iterations', vus: 10, iterations: 3 }, sequence);
    expect(field(ps, 'vus')).toEqual(expected.constantVus);
    expect(field(ps, 'iterations')).toEqual([3, 3, 3]);
    const counts = field(ps, 'vus').map((v) => v * 3);
    expect(sum(counts)).toBe(30);
    // Numbered by the segment's stripe (k6's rule), which need not fill 0…29 when VUs split unevenly: unique.
    expect(new Set(iterationNumbers(ps, counts).flat()).size).toBe(30);
  });

  it('shared-iterations: iterations split among the VUs, numbers unique across instances', () => {
    const ps = parts({ executor: 'shared-iterations', vus: 4, iterations: 10 }, sequence);
    expect(field(ps, 'vus')).toEqual(expected.shared.vus);
    expect(field(ps, 'iterations')).toEqual(expected.shared.iterations);
    expectPartition(iterationNumbers(ps, field(ps, 'iterations')), 10);
  });

  it('ramping-vus: the instances hold the whole count at every instant', () => {
    const raw = {
      executor: 'ramping-vus',
      startVUs: 1,
      stages: [
        { duration: '10s', target: 10 },
        { duration: '5s', target: 10 },
        { duration: '10s', target: 3 },
      ],
    };
    const ps = parts(raw, sequence);
    const whole = rampingVusChanges(1, (parse(raw) as RampingVusConfig).stages);
    const countAt = (changes: VuCountChange[], t: number) =>
      changes.filter((c) => c.at <= t).reduce((_, c) => c.vus, 0);
    for (let t = 0; t <= 25_000; t += 250) {
      const local = ps.map((p) => (p?.executor === 'ramping-vus' ? countAt(p.changes ?? [], t) : 0));
      expect(sum(local)).toBe(countAt(whole, t));
    }
    expect(sum(ps.map((p) => (p ? executorOf(p).maxVUs(p) : 0)))).toBe(10);
  });

  it.each([
    { executor: 'constant-arrival-rate', rate: 30, duration: '3s', preAllocatedVUs: 4, maxVUs: 10 },
    {
      executor: 'ramping-arrival-rate',
      startRate: 5,
      preAllocatedVUs: 10,
      stages: [
        { duration: '2s', target: 40 },
        { duration: '1s', target: 40 },
        { duration: '2s', target: 0 },
      ],
    },
  ])('$executor: VUs split, and the starts together are exactly the whole schedule', (raw) => {
    const whole = parse(raw) as ScenarioConfig & { preAllocatedVUs: number; maxVUs: number };
    const ps = parts(raw, sequence);
    expect(sum(field(ps, 'preAllocatedVUs'))).toBe(whole.preAllocatedVUs);
    expect(sum(field(ps, 'maxVUs'))).toBe(whole.maxVUs);
    const starts = ps.map(startsOf);
    const all = [...arrivalStarts(whole as never)];
    expect(starts.flat().sort((a, b) => a - b)).toEqual(all);
    // Each instance's share of the starts is its share of maxVUs' split, to the start.
    const split = tuples(sequence).map((t) => t.forValue(whole.maxVUs));
    expect(starts.map((s) => s.length)).toEqual(split.map((t) => t?.scale(all.length) ?? 0));
    expectPartition(
      iterationNumbers(
        ps,
        starts.map((s) => s.length),
      ),
      all.length,
    );
  });
});

describe('work that needs VUs', () => {
  it("goes only to instances with VUs (k6's 2 VUs, 3 iterations case)", () => {
    const ps = parts({ executor: 'shared-iterations', vus: 2, iterations: 3 }, THIRDS);
    expect(field(ps, 'vus')).toEqual([1, 1, 0]);
    expect(field(ps, 'iterations')).toEqual([2, 1, 0]);
    expect(ps[2]).toBeUndefined();
    expectPartition(iterationNumbers(ps, [2, 1, 0]), 3);
  });

  it('an arrival-rate scenario with fewer maxVUs than instances runs every start on the instances with VUs', () => {
    const raw = {
      executor: 'constant-arrival-rate',
      rate: 10,
      duration: '2s',
      preAllocatedVUs: 1,
      maxVUs: 2,
    };
    const ps = parts(raw, QUARTERS);
    expect(field(ps, 'maxVUs')).toEqual([1, 0, 1]);
    expect(ps[1]).toBeUndefined();
    expect(ps.flatMap(startsOf).sort((a, b) => a - b)).toEqual([...arrivalStarts(parse(raw) as never)]);
  });
});

describe('header', () => {
  it("shows the segment's share and its own VUs", () => {
    const [t] = tuples(THIRDS);
    const c = parse({
      executor: 'constant-arrival-rate',
      rate: 30,
      duration: '1m',
      preAllocatedVUs: 3,
      maxVUs: 9,
    });
    const p = executorOf(c).segment(c, t) as ScenarioConfig;
    expect(planHeader([p], executionPlan([p]), t.share)).toBe(
      'scenarios: (33.33%) 1 scenario, 3 max VUs, 1m30s max duration (incl. graceful stop):',
    );
    expect(describeScenario(p)).toBe('10.00 iterations/s for 1m0s (maxVUs: 1-3, gracefulStop: 30s)');
  });
});
