// The one run behind `make filter-cost`: `bench run build/filter-cost.js` with a profile's knobs, against one fresh
// emulator or the real service. The script itself refuses bad knobs and an unconfirmed bill in init; this only
// picks the target, makes the results directory and reports which result files the run wrote.
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envFlags, envFromFlags } from './env-flags';
import type { FilterCostProfile } from './filter-cost-profiles';
import { runBench, runWithEmulator } from './with-emulator';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface LaunchOptions {
  profile: FilterCostProfile;
  /** Extra `bench run` flags (e.g. `-e SEED=42`, `--out json=...`); `-e` flags override the profile's knobs. */
  extraArgs?: string[];
  /** The caller's environment (credentials for the real service come from here). */
  env?: NodeJS.ProcessEnv;
  stdio?: 'inherit' | 'pipe';
  onOutput?: (chunk: string) => void;
}

export interface LaunchResult {
  exitCode: number;
  /** The result files the run wrote (`.md` and `.json`), absolute. */
  files: string[];
}

/** A refusal before anything ran. */
export class LaunchRefused extends Error {}

export async function launchFilterCost(o: LaunchOptions): Promise<LaunchResult> {
  const caller = o.env ?? process.env;
  if (o.profile.emulator === null && !caller.TURBOPUFFER_API_KEY)
    throw new LaunchRefused(
      'TURBOPUFFER_API_KEY: the service profile targets the real service and needs the key in the environment; ' +
        'use the local profile to run against the emulator',
    );
  const env = { ...o.profile.env, ...envFromFlags(o.extraArgs ?? []) };
  const dir = join(root, env.RESULTS_DIR ?? 'results');
  mkdirSync(dir, { recursive: true });
  const before = new Set(readdirSync(dir));
  const runArgs = ['build/filter-cost.js', ...envFlags(o.profile.env), ...(o.extraArgs ?? [])];
  const output = { stdio: o.stdio, onOutput: o.onOutput };
  const exitCode =
    o.profile.emulator === null
      ? await runBench({ runArgs, baseEnv: caller, ...output })
      : await runWithEmulator({ emulatorArgs: o.profile.emulator, runArgs, ...output });
  const files = readdirSync(dir)
    .filter((f) => f.startsWith('bench-filter-cost-') && /\.(md|json)$/.test(f) && !before.has(f))
    .map((f) => join(dir, f));
  return { exitCode, files };
}
