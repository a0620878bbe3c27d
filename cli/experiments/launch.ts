// The one run behind every experiment make target: pick the target by the shared rule (./target-rule.ts) and say
// it, then `bench run <bundle>` with the profile's knobs against a fresh emulator or the real service, and report
// the result files the run wrote. The script itself refuses bad knobs and an unconfirmed bill in init.
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchError } from '../../core/errors';
import { DEFAULT_RESULTS_DIR } from '../../lib/common-knobs';
import { EnvError } from '../../lib/env';
import { parseRunFlags } from '../../runner';
import { envFlags, envFromFlags, withoutEnvFlags } from './env-flags';
import { findMakeTarget, type MakeTarget, profileKnobs } from './experiments';
import { chooseTarget, type TargetChoice, TargetRefused } from './target-rule';
import { runBench, runWithEmulator } from './with-emulator';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface LaunchOptions {
  /** `<experiment>` or `<experiment>-smoke`. */
  makeTarget: string;
  /** Extra `bench run` flags (e.g. `-e SEED=42`, `--out json=...`); `-e` flags override the profile's knobs. */
  extraArgs?: string[];
  /** The caller's environment (credentials for the real service come from here). */
  env?: NodeJS.ProcessEnv;
  stdio?: 'inherit' | 'pipe';
  onOutput?: (chunk: string) => void;
  /** Receives the launcher's own lines (the target and why); stderr by default. */
  say?: (line: string) => void;
}

export interface LaunchResult {
  exitCode: number;
  /** The result files the run wrote (`.md` and `.json`), absolute. */
  files: string[];
  choice: TargetChoice;
}

export async function launchExperiment(o: LaunchOptions): Promise<LaunchResult> {
  const t = await findMakeTarget(o.makeTarget);
  if (t === null) throw new TargetRefused(`no experiment has a make target called ${o.makeTarget}`);
  const caller = o.env ?? process.env;
  const extra = o.extraArgs ?? [];
  const say = o.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const fromFlags = envFromFlags(extra);
  const asked = { ...caller, ...fromFlags };
  const choice = chooseTarget(o.makeTarget, t, asked);
  for (const line of choice.lines) say(`${t.experiment}: ${line}`);
  const profile = profileKnobs(choice.profile, asked.QUERY_MODE);
  if (profile.setAside.length > 0)
    say(
      `${t.experiment}: QUERY_MODE=workers: the profile's ${profile.setAside.join(', ')} set aside ` +
        '(closed-loop workers instead of its arrival rate)',
    );

  const knobs = { ...profile.env, ...fromFlags };
  checkFlagsFirst(t, extra);
  checkKnobsFirst(t, choice, caller, knobs);
  const dir = resolve(root, knobs.RESULTS_DIR ?? DEFAULT_RESULTS_DIR);
  mkdirSync(dir, { recursive: true });
  const before = new Set(readdirSync(dir));
  const output = { stdio: o.stdio, onOutput: o.onOutput };
  const exitCode =
    choice.kind === 'service'
      ? await runBench({
          runArgs: [t.script, ...envFlags(profile.env), ...extra],
          baseEnv: caller,
          ...output,
        })
      : await runWithEmulator({
          emulatorArgs: choice.profile.emulator ?? [],
          // The variables set aside never reach the run: neither from the environment nor as -e flags.
          runArgs: [t.script, ...envFlags(profile.env), ...withoutEnvFlags(extra, choice.setAside)],
          baseEnv: caller,
          ...output,
        });
  const files = readdirSync(dir)
    .filter((f) => /\.(md|json)$/.test(f) && !before.has(f))
    .sort()
    .map((f) => join(dir, f));
  return { exitCode, files, choice };
}

/**
 * Parses the `bench run` flags here first, so a bad one (`--instances abc`, a misspelt flag) is refused with bench
 * run's own message before an emulator starts, rather than after it with the emulator's shutdown line behind it.
 */
function checkFlagsFirst(t: MakeTarget, extra: string[]): void {
  try {
    parseRunFlags([t.script, ...extra]);
  } catch (error) {
    if (error instanceof BenchError)
      throw new TargetRefused(`${error.message}${error.hint ? ` (hint: ${error.hint})` : ''}`);
    throw error;
  }
}

/**
 * Runs the script's knob checks here first, on the environment the run would see, so a bad knob is refused before
 * an emulator starts (the message is the one the script's init would give). Against the emulator the base URL is a
 * loopback placeholder: the emulator's port is not known yet.
 */
function checkKnobsFirst(
  t: MakeTarget,
  choice: TargetChoice,
  caller: NodeJS.ProcessEnv,
  knobs: Record<string, string>,
): void {
  const env: Record<string, string | undefined> = { ...caller, ...knobs };
  if (choice.kind === 'emulator') {
    for (const name of choice.setAside) delete env[name];
    env.TURBOPUFFER_BASE_URL = 'http://127.0.0.1:8787';
  }
  try {
    t.checkKnobs(env);
  } catch (error) {
    if (error instanceof EnvError) throw new TargetRefused(error.message);
    throw error;
  }
}
