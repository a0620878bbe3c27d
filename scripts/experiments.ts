// The experiment make targets: which bundle each runs and which profile it uses against a fresh local emulator and
// against the real service (null: emulator only). scripts/target-rule.ts picks the target, the same way for all.
import { readBacklogConfig } from '../lib/backlog/config';
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

export function isMakeTarget(name: string): name is MakeTargetName {
  return Object.hasOwn(MAKE_TARGETS, name);
}
