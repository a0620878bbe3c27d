// The experiment make targets: `make <name>` runs lib/<name>/'s local profile against a fresh emulator (or its
// real-service profile, by ./target-rule.ts), `make <name>-smoke` its smoke profile. Every folder of lib/ with an
// experiment.ts is an experiment; nothing here lists them.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARRIVAL_ONLY } from '../../lib/common-knobs';
import type { EnvRecord } from '../../lib/env';
import { EXPERIMENT_NAME, loadExperiment, type Profile } from '../../lib/experiment';

export type { Profile } from '../../lib/experiment';

const LIB = fileURLToPath(new URL('../../lib/', import.meta.url));

export interface MakeTarget {
  /** The experiment's name: how the launcher names itself in its messages. */
  experiment: string;
  /** The bundle `bench run` runs. */
  script: string;
  /** The profile against a fresh local emulator. */
  emulator: Profile;
  /** The profile against the real service; null when the target only makes sense against the emulator. */
  service: Profile | null;
  /**
   * The script's own knob checks (pure, the code its init runs), so the launcher refuses bad knobs before it starts
   * an emulator; throws the EnvError the script would.
   */
  checkKnobs: (env: EnvRecord) => void;
}

const SMOKE = '-smoke';

/** Every experiment in lib/ (a folder with an experiment.ts), sorted. */
export function experimentNames(): string[] {
  return readdirSync(LIB, { withFileTypes: true })
    .filter((d) => d.isDirectory() && EXPERIMENT_NAME.test(d.name) && !d.name.endsWith(SMOKE))
    .filter((d) => readdirSync(join(LIB, d.name)).includes('experiment.ts'))
    .map((d) => d.name)
    .sort();
}

/** The make target `name` (`<experiment>` or `<experiment>-smoke`), or null when no experiment has it. */
export async function findMakeTarget(name: string): Promise<MakeTarget | null> {
  const smoke = name.endsWith(SMOKE);
  const experiment = await loadExperiment(smoke ? name.slice(0, -SMOKE.length) : name);
  if (experiment === null) return null;
  return {
    experiment: experiment.name,
    script: `build/${experiment.name}.js`,
    emulator: smoke ? experiment.profiles.smoke : experiment.profiles.local,
    service: smoke ? null : experiment.profiles.service,
    checkKnobs: (env) => {
      experiment.options(env);
    },
  };
}

/** Every make target of every experiment, by name. */
export async function makeTargets(): Promise<Record<string, MakeTarget>> {
  const out: Record<string, MakeTarget> = {};
  for (const name of experimentNames())
    for (const target of [name, `${name}${SMOKE}`]) {
      const found = await findMakeTarget(target);
      if (found) out[target] = found;
    }
  return out;
}

/**
 * A profile's knobs under the load model the caller picked. Profiles size an open-model load (QUERY_RATE,
 * QUERY_VUS), which the script refuses beside QUERY_MODE=workers; when the caller asks for the closed loop (in ARGS
 * or the environment), those knobs are set aside, so `make backlog ARGS="-e QUERY_MODE=workers"` reruns the
 * published harness's load model (QUERY_WORKERS: the experiment's default or the caller's). The caller's own
 * arrival knobs are kept, and still refused beside workers.
 */
export function profileKnobs(
  profile: Profile,
  callerMode: string | undefined,
): { env: Record<string, string>; setAside: string[] } {
  if (callerMode?.trim() !== 'workers') return { env: profile.env, setAside: [] };
  const arrivalOnly: readonly string[] = ARRIVAL_ONLY;
  const env: Record<string, string> = {};
  const setAside: string[] = [];
  for (const [name, value] of Object.entries(profile.env))
    if (arrivalOnly.includes(name)) setAside.push(name);
    else env[name] = value;
  return { env, setAside };
}
