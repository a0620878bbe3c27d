import { describe, expect, it } from 'vitest';
import {
  arrivalOffsetOf,
  arrivalStarts,
  constantArrivalStarts,
  rampingArrivalStarts,
} from './arrival-schedule';
import { executionPlan, planHeader } from './execution-plan';
import {
  describeScenario,
  hardEnd,
  maxVUsOf,
  parseScenario,
  plannedVUs,
  regularDuration,
  type ScenarioConfig,
  scriptScenarioProblems,
} from './index';
import { rampingVusChanges } from './ramping-vus-schedule';

function parse(raw: Record<string, unknown>, name = 'test'): { config?: ScenarioConfig; problems: string[] } {
  const problems: string[] = [];
  const config = parseScenario(name, raw, problems);
  return { config, problems };
}

describe('scriptScenarioProblems', () => {
  it('reports structure only: unknown fields, missing or unknown executors, not values', () => {
    expect(
      scriptScenarioProblems({
        a: { executor: 'ramping-vus', startvus: 0, stages: [] },
        b: { vus: 1 },
        c: { executor: 'externally-controlled' },
        d: { executor: 'constant-vus', vus: -5 },
      }),
    ).toEqual([
      'scenario "a": unknown field "startvus"',
      expect.stringContaining('scenario "b": executor is required'),
      expect.stringContaining('scenario "c": unknown executor type \'externally-controlled\''),
    ]);
    expect(scriptScenarioProblems(undefined)).toEqual([]);
  });
});

describe('parseScenario', () => {
  it('applies k6 defaults for a shared-iterations scenario', () => {
    const { config, problems } = parse({ executor: 'shared-iterations' });
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      vus: 1,
      iterations: 1,
      maxDuration: 600_000,
      startTime: 0,
      gracefulStop: 30_000,
      exec: 'default',
    });
  });

  it('defaults maxVUs to preAllocatedVUs for arrival-rate executors', () => {
    const { config } = parse({
      executor: 'constant-arrival-rate',
      rate: 10,
      duration: '10s',
      preAllocatedVUs: 3,
    });
    expect(config).toMatchObject({
      rate: 10,
      timeUnit: 1000,
      duration: 10_000,
      preAllocatedVUs: 3,
      maxVUs: 3,
    });
  });

  it('reports unknown fields, unknown executors and bad names', () => {
    expect(parse({ executor: 'constant-vus', duration: '5s', vu: 3 }).problems).toEqual([
      'scenario "test": unknown field "vu"',
    ]);
    expect(parse({ executor: 'externally-controlled' }).problems[0]).toMatch(
      /unknown executor type 'externally-controlled'/,
    );
    expect(parse({ executor: 'constant-vus', duration: '5s' }, 'bad name').problems[0]).toMatch(/invalid/);
  });

  it('reports every validation problem at once', () => {
    expect(
      parse({ executor: 'shared-iterations', vus: 5, iterations: 3, maxDuration: '500ms' }).problems,
    ).toEqual([
      'scenario "test": the number of iterations (3) can\'t be less than the number of VUs (5)',
      'scenario "test": maxDuration must be at least 1s, got 500ms',
    ]);
    expect(parse({ executor: 'constant-arrival-rate', rate: 1, duration: '2s' }).problems).toEqual([
      'scenario "test": preAllocatedVUs is required',
    ]);
    expect(
      parse({ executor: 'constant-arrival-rate', rate: 1, duration: '2s', preAllocatedVUs: 5, maxVUs: 2 })
        .problems,
    ).toEqual(['scenario "test": maxVUs (2) must be at least preAllocatedVUs (5)']);
  });
});

describe('describeScenario', () => {
  it.each([
    [
      { executor: 'shared-iterations', vus: 2, iterations: 10 },
      '10 iterations shared among 2 VUs (maxDuration: 10m0s, gracefulStop: 30s)',
    ],
    [
      { executor: 'per-vu-iterations', vus: 3, iterations: 4, exec: 'writer' },
      '4 iterations for each of 3 VUs (maxDuration: 10m0s, exec: writer, gracefulStop: 30s)',
    ],
    [{ executor: 'constant-vus', vus: 10, duration: '30s' }, '10 looping VUs for 30s (gracefulStop: 30s)'],
    [
      {
        executor: 'ramping-vus',
        stages: [
          { duration: '30s', target: 5 },
          { duration: '30s', target: 0 },
        ],
      },
      'Up to 5 looping VUs for 1m0s over 2 stages (gracefulRampDown: 30s, gracefulStop: 30s)',
    ],
    [
      {
        executor: 'constant-arrival-rate',
        rate: 10,
        duration: '1m',
        preAllocatedVUs: 10,
        maxVUs: 50,
        startTime: '10s',
      },
      '10.00 iterations/s for 1m0s (maxVUs: 10-50, startTime: 10s, gracefulStop: 30s)',
    ],
    [
      {
        executor: 'ramping-arrival-rate',
        preAllocatedVUs: 5,
        stages: [
          { duration: '1m', target: 50 },
          { duration: '1m', target: 0 },
        ],
      },
      'Up to 50.00 iterations/s for 2m0s over 2 stages (maxVUs: 5, gracefulStop: 30s)',
    ],
  ])('describes %j', (raw, text) => {
    const { config } = parse(raw);
    expect(describeScenario(config as ScenarioConfig)).toBe(text);
  });
});

describe('executor windows and VU needs', () => {
  it.each([
    [{ executor: 'shared-iterations', vus: 3, iterations: 9 }, 600_000, 630_000, 3, 3],
    [{ executor: 'per-vu-iterations', vus: 2, maxDuration: '1m', gracefulStop: '0s' }, 60_000, 60_000, 2, 2],
    [{ executor: 'constant-vus', vus: 4, duration: '30s', startTime: '10s' }, 30_000, 70_000, 4, 4],
    [
      {
        executor: 'ramping-vus',
        startVUs: 2,
        stages: [
          { duration: '10s', target: 6 },
          { duration: '5s', target: 1 },
        ],
      },
      15_000,
      45_000,
      6,
      6,
    ],
    [
      { executor: 'constant-arrival-rate', rate: 5, duration: '20s', preAllocatedVUs: 2, maxVUs: 9 },
      20_000,
      50_000,
      2,
      9,
    ],
    [
      {
        executor: 'ramping-arrival-rate',
        preAllocatedVUs: 1,
        stages: [{ duration: '1m', target: 10 }],
        gracefulStop: '5s',
      },
      60_000,
      65_000,
      1,
      1,
    ],
  ])(
    '%j: regular end %d ms, hard end %d ms, %d planned and %d max VUs',
    (raw, regular, hard, planned, max) => {
      const { config, problems } = parse(raw);
      expect(problems).toEqual([]);
      const c = config as ScenarioConfig;
      expect([regularDuration(c), hardEnd(c), plannedVUs(c), maxVUsOf(c)]).toEqual([
        regular,
        hard,
        planned,
        max,
      ]);
    },
  );
});

describe('arrival schedules', () => {
  it('starts constant-arrival-rate iterations at i·timeUnit/rate from t=0 until duration', () => {
    const starts = [...constantArrivalStarts({ rate: 10, timeUnit: 1000, duration: 10_000 })];
    expect(starts.length).toBe(100);
    expect(starts[0]).toBe(0);
    expect(starts[1]).toBe(100);
    expect(starts[99]).toBe(9900);
  });

  it('handles rates per minute', () => {
    expect([...constantArrivalStarts({ rate: 2, timeUnit: 60_000, duration: 60_000 })]).toEqual([0, 30_000]);
  });

  it('starts the n-th ramping-arrival-rate iteration when the rate integral reaches n', () => {
    // A constant 2/s for 2s: starts at 0.5s, 1s, 1.5s (the 4th would be at 2s, the end).
    expect([
      ...rampingArrivalStarts({ startRate: 2, timeUnit: 1000, stages: [{ duration: 2000, target: 2 }] }),
    ]).toEqual([500, 1000, 1500]);
    // A ramp 0 -> 4/s over 1s has area 2: starts where 2t² = n, i.e. t = sqrt(0.5) s; the second lands on the end.
    const ramp = [
      ...rampingArrivalStarts({ startRate: 0, timeUnit: 1000, stages: [{ duration: 1000, target: 4 }] }),
    ];
    expect(ramp.length).toBe(1);
    expect(ramp[0]).toBeCloseTo(707.1068, 3);
  });

  it('carries fractions across stages', () => {
    const starts = [
      ...rampingArrivalStarts({
        startRate: 1,
        timeUnit: 1000,
        stages: [
          { duration: 1500, target: 1 },
          { duration: 1000, target: 1 },
        ],
      }),
    ];
    expect(starts).toEqual([1000, 2000]);
  });

  it('gives random access to the same start offsets (VUs claim iterations by number)', () => {
    const configs = [
      { executor: 'constant-arrival-rate', rate: 7, timeUnit: 1000, duration: 3000 },
      {
        executor: 'ramping-arrival-rate',
        startRate: 0,
        timeUnit: 1000,
        stages: [
          { duration: 2000, target: 30 },
          { duration: 0, target: 5 },
          { duration: 1500, target: 5 },
          { duration: 1000, target: 0 },
        ],
      },
    ] as const;
    for (const c of configs) {
      const expected = [...arrivalStarts(c as never)];
      const offsetOf = arrivalOffsetOf(c as never);
      expected.forEach((at, i) => {
        expect(offsetOf(i)).toBeCloseTo(at, 6);
      });
      expect(offsetOf(expected.length)).toBe(Number.POSITIVE_INFINITY);
    }
  });

  it('dispatches on the executor', () => {
    const { config } = parse({
      executor: 'constant-arrival-rate',
      rate: 5,
      duration: '1s',
      preAllocatedVUs: 1,
    });
    expect([...arrivalStarts(config as never)]).toEqual([0, 200, 400, 600, 800]);
  });
});

describe('rampingVusChanges', () => {
  it('activates VUs at the floor of the linear ramp and removes them at the ceiling', () => {
    expect(
      rampingVusChanges(0, [
        { duration: 4000, target: 4 },
        { duration: 2000, target: 0 },
      ]),
    ).toEqual([
      { at: 0, vus: 0 },
      { at: 1000, vus: 1 },
      { at: 2000, vus: 2 },
      { at: 3000, vus: 3 },
      { at: 4000, vus: 4 },
      { at: 4500, vus: 3 },
      { at: 5000, vus: 2 },
      { at: 5500, vus: 1 },
      { at: 6000, vus: 0 },
    ]);
  });

  it('jumps at once on zero-duration stages', () => {
    expect(
      rampingVusChanges(1, [
        { duration: 0, target: 5 },
        { duration: 1000, target: 5 },
      ]),
    ).toEqual([{ at: 0, vus: 5 }]);
  });
});

describe('executionPlan', () => {
  it('sums overlapping windows and reuses VUs of finished scenarios', () => {
    const parsed = [
      parse({ executor: 'shared-iterations', vus: 10, iterations: 10 }, 'a').config,
      parse({ executor: 'per-vu-iterations', vus: 10, startTime: '10s' }, 'b').config,
      parse({ executor: 'constant-vus', vus: 3, duration: '5s', startTime: '20m' }, 'c').config,
    ] as ScenarioConfig[];
    const plan = executionPlan(parsed);
    expect(plan.plannedPeak).toBe(20);
    expect(plan.maxDuration).toBe(20 * 60_000 + 35_000);
    expect(planHeader(parsed, plan)).toBe(
      'scenarios: (100.00%) 3 scenarios, 20 max VUs, 20m35s max duration (incl. graceful stop):',
    );
  });

  it('counts arrival-rate maxVUs in max VUs but only preAllocatedVUs as planned', () => {
    const c = parse({
      executor: 'constant-arrival-rate',
      rate: 1,
      duration: '1m',
      preAllocatedVUs: 2,
      maxVUs: 7,
    }).config;
    expect(executionPlan([c as ScenarioConfig])).toEqual({ plannedPeak: 2, maxVUs: 7, maxDuration: 90_000 });
  });
});
