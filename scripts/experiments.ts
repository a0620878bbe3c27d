// The experiment make targets: which bundle each runs and which profile it uses against a fresh local emulator and
// against the real service (null: emulator only). scripts/target-rule.ts picks the target, the same way for all.
import { readBacklogConfig } from '../lib/backlog/config';
import { ARRIVAL_ONLY } from '../lib/common-knobs';
import type { EnvRecord } from '../lib/env';
import { planStudy } from '../lib/filter-cost/cells';
import { readFilterCostConfig } from '../lib/filter-cost/config';
import { PROFILES as BACKLOG } from './backlog-profiles';
import { PROFILES as FILTER_COST } from './filter-cost-profiles';

/** One way to run an experiment: the emulator's flags (null = no emulator) and the script's knobs. */
export interface Profile {
  description: string;
  /** Flags for `bench emulator` (one fresh emulator for the run); null = the real service, no emulator. */
  emulator: string[] | null;
  /** Knobs passed with `-e` to `bench run`. */
  env: Record<string, string>;
}

export interface MakeTarget {
  /** How the launcher names itself in its messages. */
  experiment: 'backlog' | 'filter-cost';
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

const backlogKnobs = (env: EnvRecord) => {
  readBacklogConfig(env);
};
const filterCostKnobs = (env: EnvRecord) => {
  planStudy(readFilterCostConfig(env));
};

export const MAKE_TARGETS = {
  backlog: {
    experiment: 'backlog',
    script: 'build/backlog.js',
    emulator: BACKLOG.local,
    service: BACKLOG.service,
    checkKnobs: backlogKnobs,
  },
  'backlog-smoke': {
    experiment: 'backlog',
    script: 'build/backlog.js',
    emulator: BACKLOG.smoke,
    service: null,
    checkKnobs: backlogKnobs,
  },
  'filter-cost': {
    experiment: 'filter-cost',
    script: 'build/filter-cost.js',
    emulator: FILTER_COST.local,
    service: FILTER_COST.service,
    checkKnobs: filterCostKnobs,
  },
  'filter-cost-smoke': {
    experiment: 'filter-cost',
    script: 'build/filter-cost.js',
    emulator: FILTER_COST.smoke,
    service: null,
    checkKnobs: filterCostKnobs,
  },
} satisfies Record<string, MakeTarget>;

export type MakeTargetName = keyof typeof MAKE_TARGETS;

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

export function isMakeTarget(name: string): name is MakeTargetName {
  return Object.hasOwn(MAKE_TARGETS, name);
}
