// Knobs and executors agree: every profile of every experiment, and each query-load knob at its edges, gives k6
// options the runner's own scenario parser accepts, so a value the knob check lets through never fails later in the
// executor (issue 30: QUERY_RATE=2.5 passed the knob and then failed as "rate must be an integer").
import { describe, expect, it } from 'vitest';
import { experimentNames } from '../cli/experiments/experiments';
import { EnvError } from '../lib/env';
import { type Experiment, loadExperiment } from '../lib/experiment';
import { parseScenario } from '../runner/executors/index';

const EXPERIMENTS = (await Promise.all(experimentNames().map(loadExperiment))).filter(
  (e): e is Experiment => e !== null,
);
const LOOPBACK = { TURBOPUFFER_BASE_URL: 'http://127.0.0.1:8787' };
const SERVICE = { TURBOPUFFER_API_KEY: 'not-a-key', TURBOPUFFER_REGION: 'gcp-us-central1' };

/** Every scenario of the options through the runner's parser: the problems it reports. */
function executorProblems(options: { scenarios?: Record<string, unknown> }): string[] {
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(options.scenarios ?? {})) parseScenario(name, raw, problems);
  return problems;
}

/** The knobs' edges that reach executor fields: rates, VU counts, workers. */
const EDGES: Record<string, string>[] = [
  { QUERY_RATE: '0.001' },
  { QUERY_RATE: '0.1' },
  { QUERY_RATE: '2.5' },
  { QUERY_RATE: '33.333' },
  { QUERY_RATE: '100000', QUERY_VUS: '100000' },
  { QUERY_RATE: '1', QUERY_VUS: '1', QUERY_MAX_VUS: '1' },
  { QUERY_MODE: 'workers', QUERY_WORKERS: '1' },
  { QUERY_MODE: 'workers', QUERY_WORKERS: '10000' },
];

describe.each(EXPERIMENTS.map((e) => [e.name, e] as const))('%s', (_, experiment) => {
  const profiles = Object.entries(experiment.profiles).filter(
    (p): p is [string, NonNullable<(typeof p)[1]>] => p[1] !== null,
  );

  it.each(profiles)('its %s profile gives options every executor accepts', (name, profile) => {
    const env = { ...profile.env, ...(name === 'service' ? SERVICE : LOOPBACK) };
    expect(executorProblems(experiment.options(env))).toEqual([]);
  });

  it.each(EDGES)('the query load %j: the knob refuses it or every executor accepts it', (edge) => {
    const env: Record<string, string> = { ...experiment.profiles.local.env, ...LOOPBACK, ...edge };
    // A profile's arrival knobs do not go with workers (the launcher sets them aside the same way).
    if (edge.QUERY_MODE === 'workers')
      for (const k of ['QUERY_RATE', 'QUERY_VUS', 'QUERY_MAX_VUS']) delete env[k];
    let options: ReturnType<Experiment['options']>;
    try {
      options = experiment.options(env);
    } catch (error) {
      // Refused by the knob check, naming the knob: fine, as long as it is refused before the executor.
      expect(error).toBeInstanceOf(EnvError);
      return;
    }
    expect(executorProblems(options)).toEqual([]);
  });

  it('refuses a rate with more than three decimals at the knob, naming it', () => {
    const env = { ...experiment.profiles.local.env, ...LOOPBACK, QUERY_RATE: '2.0001' };
    expect(() => experiment.options(env)).toThrow('QUERY_RATE: 2.0001 has more than three decimals');
  });
});
