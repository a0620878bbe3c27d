// Executor name -> parser, description and VU/duration needs: the only list of executors.
import { FieldReader } from './base';
import {
  type ConstantArrivalRateConfig,
  describeConstantArrivalRate,
  parseConstantArrivalRate,
} from './constant-arrival-rate';
import { type ConstantVusConfig, describeConstantVus, parseConstantVus } from './constant-vus';
import {
  describePerVuIterations,
  type PerVuIterationsConfig,
  parsePerVuIterations,
} from './per-vu-iterations';
import {
  describeRampingArrivalRate,
  parseRampingArrivalRate,
  type RampingArrivalRateConfig,
} from './ramping-arrival-rate';
import {
  describeRampingVus,
  parseRampingVus,
  type RampingVusConfig,
  rampingVusMax,
  stagesTotal,
} from './ramping-vus';
import {
  describeSharedIterations,
  parseSharedIterations,
  type SharedIterationsConfig,
} from './shared-iterations';

export type ScenarioConfig =
  | SharedIterationsConfig
  | PerVuIterationsConfig
  | ConstantVusConfig
  | RampingVusConfig
  | ConstantArrivalRateConfig
  | RampingArrivalRateConfig;

interface ExecutorEntry {
  parse(name: string, r: FieldReader): ScenarioConfig;
  describe(c: ScenarioConfig): string;
}

// biome-ignore lint/suspicious/noExplicitAny: each entry's describe receives its own config type; the table erases it.
type AnyDescribe = (c: any) => string;

const EXECUTORS: Record<ScenarioConfig['executor'], ExecutorEntry> = {
  'shared-iterations': { parse: parseSharedIterations, describe: describeSharedIterations as AnyDescribe },
  'per-vu-iterations': { parse: parsePerVuIterations, describe: describePerVuIterations as AnyDescribe },
  'constant-vus': { parse: parseConstantVus, describe: describeConstantVus as AnyDescribe },
  'ramping-vus': { parse: parseRampingVus, describe: describeRampingVus as AnyDescribe },
  'constant-arrival-rate': {
    parse: parseConstantArrivalRate,
    describe: describeConstantArrivalRate as AnyDescribe,
  },
  'ramping-arrival-rate': {
    parse: parseRampingArrivalRate,
    describe: describeRampingArrivalRate as AnyDescribe,
  },
};

export const EXECUTOR_NAMES = Object.keys(EXECUTORS);

const SCENARIO_NAME = /^[0-9a-zA-Z_-]+$/;

/** Parses one raw scenario object strictly; problems are appended, never thrown. */
export function parseScenario(name: string, raw: unknown, problems: string[]): ScenarioConfig | undefined {
  if (!SCENARIO_NAME.test(name)) {
    problems.push(`scenario name "${name}" is invalid: use only letters, digits, "_" and "-"`);
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(`scenario "${name}" must be an object`);
    return undefined;
  }
  const executor = (raw as Record<string, unknown>).executor;
  if (typeof executor !== 'string' || executor === '') {
    problems.push(`scenario "${name}": executor is required (one of ${EXECUTOR_NAMES.join(', ')})`);
    return undefined;
  }
  const entry = EXECUTORS[executor as ScenarioConfig['executor']];
  if (!entry) {
    problems.push(
      `scenario "${name}": unknown executor type '${executor}' (use one of ${EXECUTOR_NAMES.join(', ')})`,
    );
    return undefined;
  }
  const reader = new FieldReader(name, raw as Record<string, unknown>, problems);
  const config = entry.parse(name, reader);
  reader.rejectUnknown();
  return config;
}

export function describeScenario(c: ScenarioConfig): string {
  return EXECUTORS[c.executor].describe(c);
}

/** VUs initialised before the run for this scenario (arrival-rate: preAllocatedVUs). */
export function plannedVUs(c: ScenarioConfig): number {
  switch (c.executor) {
    case 'shared-iterations':
    case 'per-vu-iterations':
    case 'constant-vus':
      return c.vus;
    case 'ramping-vus':
      return rampingVusMax(c);
    case 'constant-arrival-rate':
    case 'ramping-arrival-rate':
      return c.preAllocatedVUs;
  }
}

/** Most VUs the scenario may ever use (arrival-rate: maxVUs). */
export function maxVUsOf(c: ScenarioConfig): number {
  return c.executor === 'constant-arrival-rate' || c.executor === 'ramping-arrival-rate'
    ? c.maxVUs
    : plannedVUs(c);
}

/** ms from scenario start to its regular end (no new iterations after it). */
export function regularDuration(c: ScenarioConfig): number {
  switch (c.executor) {
    case 'shared-iterations':
    case 'per-vu-iterations':
      return c.maxDuration;
    case 'constant-vus':
    case 'constant-arrival-rate':
      return c.duration;
    case 'ramping-vus':
    case 'ramping-arrival-rate':
      return stagesTotal(c.stages);
  }
}

/** ms from test start to the scenario's hard end (regular end + gracefulStop). */
export function hardEnd(c: ScenarioConfig): number {
  return c.startTime + regularDuration(c) + c.gracefulStop;
}

export function isArrivalRate(c: ScenarioConfig): c is ConstantArrivalRateConfig | RampingArrivalRateConfig {
  return c.executor === 'constant-arrival-rate' || c.executor === 'ramping-arrival-rate';
}
