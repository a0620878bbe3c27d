// A scenario field that cannot be read (wrong type, missing though required) is reported once: the rules on values
// skip it, since the value they would check is a stand-in, not what the script wrote.
import { describe, expect, it } from 'vitest';
import { EXECUTOR_NAMES, parseScenario } from './index';

/** A scenario of `executor` that parses without problems, before a case changes its fields. */
const VALID: Record<string, Record<string, unknown>> = {
  'shared-iterations': { vus: 2, iterations: 4 },
  'per-vu-iterations': { vus: 2, iterations: 4 },
  'constant-vus': { vus: 2, duration: '10s' },
  'ramping-vus': { startVUs: 1, stages: [{ duration: '10s', target: 2 }] },
  'constant-arrival-rate': { rate: 5, duration: '10s', preAllocatedVUs: 2, maxVUs: 4 },
  'ramping-arrival-rate': {
    startRate: 1,
    preAllocatedVUs: 2,
    maxVUs: 4,
    stages: [{ duration: '10s', target: 5 }],
  },
};

/** `executor`'s valid scenario with `fields` set; a field set to undefined is left out. */
function scenario(executor: string, fields: Record<string, unknown>): Record<string, unknown> {
  const raw: Record<string, unknown> = { executor, ...VALID[executor], ...fields };
  for (const [field, value] of Object.entries(fields)) if (value === undefined) delete raw[field];
  return raw;
}

function problemsOf(raw: Record<string, unknown>): string[] {
  const problems: string[] = [];
  parseScenario('test', raw, problems);
  return problems.map((p) => p.replace(/^scenario "test": /, ''));
}

const GO_SYNTAX = 'use Go syntax like "500ms", "30s", "1m30s" or "1h"';

interface Case {
  name: string;
  executor: string;
  fields: Record<string, unknown>;
  problems: string[];
}

describe('a field that cannot be read is reported once', () => {
  it.each<Case>([
    {
      name: 'a shared-iterations vus of 2.5 is not an integer, and nothing else',
      executor: 'shared-iterations',
      fields: { vus: 2.5 },
      problems: ['vus must be an integer, got 2.5'],
    },
    {
      name: 'shared-iterations iterations given as text are not compared with vus',
      executor: 'shared-iterations',
      fields: { vus: 5, iterations: 'ten' },
      problems: ['iterations must be an integer, got "ten"'],
    },
    {
      name: 'a shared-iterations maxDuration that is no duration is reported once',
      executor: 'shared-iterations',
      fields: { maxDuration: 'soon' },
      problems: [`maxDuration: invalid duration "soon": ${GO_SYNTAX}`],
    },
    {
      name: 'a per-vu-iterations vus given as text is not an integer, and nothing else',
      executor: 'per-vu-iterations',
      fields: { vus: '2' },
      problems: ['vus must be an integer, got "2"'],
    },
    {
      name: 'per-vu-iterations iterations of 0.5 are not an integer, and nothing else',
      executor: 'per-vu-iterations',
      fields: { iterations: 0.5 },
      problems: ['iterations must be an integer, got 0.5'],
    },
    {
      name: 'a per-vu-iterations maxDuration that is no duration is not also too short',
      executor: 'per-vu-iterations',
      fields: { maxDuration: 'soon' },
      problems: [`maxDuration: invalid duration "soon": ${GO_SYNTAX}`],
    },
    {
      name: 'a constant-vus vus of 1.5 is not an integer, and nothing else',
      executor: 'constant-vus',
      fields: { vus: 1.5 },
      problems: ['vus must be an integer, got 1.5'],
    },
    {
      name: 'a constant-vus duration that is no duration is not also shorter than 1s',
      executor: 'constant-vus',
      fields: { duration: 'soon' },
      problems: [`duration: invalid duration "soon": ${GO_SYNTAX}`],
    },
    {
      name: 'a missing constant-vus duration is required, not shorter than 1s',
      executor: 'constant-vus',
      fields: { duration: undefined },
      problems: ["duration is required (e.g. duration: '30s')"],
    },
    {
      name: 'a ramping-vus startVUs given as text is not an integer, and nothing else',
      executor: 'ramping-vus',
      fields: { startVUs: 'none', stages: [{ duration: '10s', target: 0 }] },
      problems: ['startVUs must be an integer, got "none"'],
    },
    {
      name: 'a ramping-vus gracefulRampDown that is no duration is reported once',
      executor: 'ramping-vus',
      fields: { gracefulRampDown: 'soon' },
      problems: [`gracefulRampDown: invalid duration "soon": ${GO_SYNTAX}`],
    },
    {
      name: 'a ramping-vus stage target that is no number does not count as a target of 0',
      executor: 'ramping-vus',
      fields: { startVUs: 0, stages: [{ duration: '10s', target: false }] },
      problems: ['stages[0].target must be a non-negative integer, got false'],
    },
    {
      name: 'a ramping-vus stage duration that is no duration is reported once',
      executor: 'ramping-vus',
      fields: { stages: [{ duration: 'soon', target: 2 }] },
      problems: [`stages[0].duration: invalid duration "soon": ${GO_SYNTAX}`],
    },
    {
      name: 'a constant-arrival-rate rate of 2.5 is not an integer, and not also 0',
      executor: 'constant-arrival-rate',
      fields: { rate: 2.5 },
      problems: ['rate must be an integer, got 2.5'],
    },
    {
      name: 'a missing constant-arrival-rate rate is required, not 0',
      executor: 'constant-arrival-rate',
      fields: { rate: undefined },
      problems: ['rate is required'],
    },
    {
      name: 'a constant-arrival-rate duration that is no duration is not also shorter than 1s',
      executor: 'constant-arrival-rate',
      fields: { duration: 'soon' },
      problems: [`duration: invalid duration "soon": ${GO_SYNTAX}`],
    },
    {
      name: 'a constant-arrival-rate timeUnit that is no duration is reported once',
      executor: 'constant-arrival-rate',
      fields: { timeUnit: 'soon' },
      problems: [`timeUnit: invalid duration "soon": ${GO_SYNTAX}`],
    },
    {
      name: 'a constant-arrival-rate preAllocatedVUs of 2.5 is not compared with maxVUs',
      executor: 'constant-arrival-rate',
      fields: { preAllocatedVUs: 2.5, maxVUs: undefined },
      problems: ['preAllocatedVUs must be an integer, got 2.5'],
    },
    {
      name: 'a constant-arrival-rate maxVUs given as text is not compared with preAllocatedVUs',
      executor: 'constant-arrival-rate',
      fields: { maxVUs: 'many' },
      problems: ['maxVUs must be an integer, got "many"'],
    },
    {
      name: 'a ramping-arrival-rate startRate of 1.5 is not an integer, and nothing else',
      executor: 'ramping-arrival-rate',
      fields: { startRate: 1.5 },
      problems: ['startRate must be an integer, got 1.5'],
    },
    {
      name: 'a ramping-arrival-rate timeUnit that is no duration is reported once',
      executor: 'ramping-arrival-rate',
      fields: { timeUnit: 'soon' },
      problems: [`timeUnit: invalid duration "soon": ${GO_SYNTAX}`],
    },
    {
      name: 'a missing ramping-arrival-rate preAllocatedVUs is required, and not compared with maxVUs',
      executor: 'ramping-arrival-rate',
      fields: { preAllocatedVUs: undefined, maxVUs: -1 },
      problems: ['preAllocatedVUs is required'],
    },
    {
      name: 'a ramping-arrival-rate maxVUs of 2.5 is not compared with preAllocatedVUs',
      executor: 'ramping-arrival-rate',
      fields: { preAllocatedVUs: 3, maxVUs: 2.5 },
      problems: ['maxVUs must be an integer, got 2.5'],
    },
    {
      name: 'a ramping-arrival-rate stage target given as text is reported once',
      executor: 'ramping-arrival-rate',
      fields: { stages: [{ duration: '10s', target: 'ten' }] },
      problems: ['stages[0].target must be a non-negative integer, got "ten"'],
    },
  ])('$name', ({ executor, fields, problems }) => {
    expect(problemsOf(scenario(executor, fields))).toEqual(problems);
  });

  it.each(
    EXECUTOR_NAMES.flatMap((executor) => ['startTime', 'gracefulStop'].map((field) => ({ executor, field }))),
  )('a $executor $field that is no duration is reported once', ({ executor, field }) => {
    expect(problemsOf(scenario(executor, { [field]: 'soon' }))).toEqual([
      `${field}: invalid duration "soon": ${GO_SYNTAX}`,
    ]);
  });
});

describe('the rules on values still apply to the fields that were read', () => {
  it.each<Case>([
    {
      name: 'a constant-arrival-rate rate of 0 must be more than 0',
      executor: 'constant-arrival-rate',
      fields: { rate: 0 },
      problems: ['rate must be more than 0, got 0'],
    },
    {
      name: 'shared-iterations iterations fewer than its vus are reported',
      executor: 'shared-iterations',
      fields: { vus: 5, iterations: 3 },
      problems: ["the number of iterations (3) can't be less than the number of VUs (5)"],
    },
    {
      name: 'a constant-arrival-rate maxVUs below preAllocatedVUs is reported',
      executor: 'constant-arrival-rate',
      fields: { preAllocatedVUs: 5, maxVUs: 2 },
      problems: ['maxVUs (2) must be at least preAllocatedVUs (5)'],
    },
    {
      name: 'a ramping-vus with a startVUs and every stage target at 0 is reported',
      executor: 'ramping-vus',
      fields: { startVUs: 0, stages: [{ duration: '10s', target: 0 }] },
      problems: ['either startVUs or one of the stage targets must be more than 0'],
    },
    {
      name: 'a negative startTime is reported',
      executor: 'constant-vus',
      fields: { startTime: '-1s' },
      problems: ['startTime must not be negative'],
    },
    {
      name: 'a field that cannot be read leaves the rules on the other fields in force',
      executor: 'constant-vus',
      fields: { vus: 1.5, duration: '500ms' },
      problems: ['vus must be an integer, got 1.5', 'duration must be at least 1s, got 500ms'],
    },
  ])('$name', ({ executor, fields, problems }) => {
    expect(problemsOf(scenario(executor, fields))).toEqual(problems);
  });
});
