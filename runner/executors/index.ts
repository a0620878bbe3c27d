// The table of executors: name -> its Executor (./executor.ts). The only list of executors; everything else (config
// types, parsing, descriptions, VU needs, how a scenario runs on the main thread and in its VUs) comes from it.
import { type BaseScenarioConfig, FieldReader } from './base';
import { constantArrivalRate } from './constant-arrival-rate';
import { constantVus } from './constant-vus';
import type { Executor } from './executor';
import { perVuIterations } from './per-vu-iterations';
import { rampingArrivalRate } from './ramping-arrival-rate';
import { rampingVus } from './ramping-vus';
import { sharedIterations } from './shared-iterations';

const EXECUTORS = {
  'shared-iterations': sharedIterations,
  'per-vu-iterations': perVuIterations,
  'constant-vus': constantVus,
  'ramping-vus': rampingVus,
  'constant-arrival-rate': constantArrivalRate,
  'ramping-arrival-rate': rampingArrivalRate,
} satisfies { [K in string]: Executor<BaseScenarioConfig & { executor: K }, never> };

type Table = typeof EXECUTORS;
type ExecutorName = keyof Table;

/** A parsed scenario of any executor. */
export type ScenarioConfig = {
  [K in ExecutorName]: Table[K] extends Executor<infer C, infer _P> ? C : never;
}[ExecutorName];

export const EXECUTOR_NAMES = Object.keys(EXECUTORS);

/**
 * The executor of a config. The table pairs each name with its own config type; indexing it by a union loses that
 * pairing, so the result is typed for the config it is asked about.
 */
export function executorOf<C extends ScenarioConfig>(c: C): Executor<C, unknown> {
  return EXECUTORS[c.executor] as unknown as Executor<C, unknown>;
}

/** The executor a VU's activation names (the VU thread only knows the name). */
export function executorNamed(name: string): Executor<ScenarioConfig, unknown> | undefined {
  return (EXECUTORS as Record<string, Executor<ScenarioConfig, unknown>>)[name];
}

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
  const entry = executorNamed(executor);
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

/**
 * What k6 refuses in the script's own `scenarios` even when a higher layer (`--iterations`, `--vus`, `-d`, the env)
 * replaces them: k6 decodes the exported options into its types first, scenarios strictly (a scenario without an
 * executor, an unknown executor or an unknown field fails, exit 104), and only then consolidates. Values are not
 * validated at that stage, so only these structural problems are reported.
 */
export function scriptScenarioProblems(scenarios: unknown): string[] {
  if (scenarios === undefined || scenarios === null) return [];
  if (typeof scenarios !== 'object' || Array.isArray(scenarios)) return ['scenarios must be an object'];
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(scenarios)) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push(`scenario "${name}" must be an object`);
      continue;
    }
    const executor = (raw as Record<string, unknown>).executor;
    if (typeof executor !== 'string' || executor === '') {
      problems.push(`scenario "${name}": executor is required (one of ${EXECUTOR_NAMES.join(', ')})`);
      continue;
    }
    const entry = executorNamed(executor);
    if (!entry) {
      problems.push(
        `scenario "${name}": unknown executor type '${executor}' (use one of ${EXECUTOR_NAMES.join(', ')})`,
      );
      continue;
    }
    const reader = new FieldReader(name, raw as Record<string, unknown>, []);
    entry.parse(name, reader);
    for (const field of reader.unknownFields()) problems.push(`scenario "${name}": unknown field "${field}"`);
  }
  return problems;
}

export function describeScenario(c: ScenarioConfig): string {
  return executorOf(c).describe(c);
}

/** VUs initialised before the run for this scenario (arrival-rate: preAllocatedVUs). */
export function plannedVUs(c: ScenarioConfig): number {
  return executorOf(c).plannedVUs(c);
}

/** Most VUs the scenario may ever use (arrival-rate: maxVUs). */
export function maxVUsOf(c: ScenarioConfig): number {
  return executorOf(c).maxVUs(c);
}

/** ms from scenario start to its regular end (no new iterations after it). */
export function regularDuration(c: ScenarioConfig): number {
  return executorOf(c).regularDuration(c);
}

/** ms from test start to the scenario's hard end (regular end + gracefulStop). */
export function hardEnd(c: ScenarioConfig): number {
  return c.startTime + regularDuration(c) + c.gracefulStop;
}
