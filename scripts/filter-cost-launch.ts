// The loop behind `make filter-cost`: checks every configuration's knobs (and, on the real service, the summed cost
// plan) before anything runs, then runs `bench run build/filter-cost.js` once per configuration and repeat (each
// against a fresh emulator, or against the service), records runs.json as it goes, and ends with the report.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawSeed } from '../lib/common-knobs';
import { planCells } from '../lib/filter-cost/cells';
import { type FilterCostConfig, readFilterCostConfig } from '../lib/filter-cost/config';
import { type FilterCostPlan, formatFilterCostPlan, planFilterCost } from '../lib/filter-cost/cost-plan';
import type { FilterCostManifest, FilterCostRunEntry } from '../lib/filter-cost/results/manifest';
import { compactTimestamp } from '../lib/namespace-lifecycle';
import { jsonFileText } from '../lib/results/run-record';
import { formatBytes } from '../lib/sizes';
import { envFlags, envFromFlags, redactArgs } from './env-flags';
import { configurationEnv, type FilterCostProfile } from './filter-cost-profiles';
import { writeReport } from './filter-cost-report';
import { runBench, runWithEmulator } from './with-emulator';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface LaunchOptions {
  profileName: string;
  profile: FilterCostProfile;
  /** Run only these configuration labels (in profile order); all when undefined. */
  only?: string[];
  /** Runs per configuration. @default 1 */
  repeats?: number;
  /** Extra flags for every `bench run` (e.g. `-e SEED=42`). */
  extraArgs?: string[];
  /** Overrides the profile's results parent directory (tests use a temporary one). */
  resultsParent?: string;
  /** Where raw sample streams go; @default results/scratch (never committed). */
  samplesParent?: string;
  /** The caller's environment (credentials for the real service come from here). */
  env?: NodeJS.ProcessEnv;
  stdio?: 'inherit' | 'pipe';
  onOutput?: (chunk: string) => void;
  log?: (line: string) => void;
}

export interface LaunchResult {
  exitCode: number;
  dir: string;
  manifest: FilterCostManifest;
  report: { markdown: string; json: string } | null;
}

/** A refusal before anything ran: bad knobs or an unconfirmed real-service plan. */
export class LaunchRefused extends Error {}

interface Planned {
  env: Record<string, string>;
  config: FilterCostConfig;
  plan: FilterCostPlan;
}

/** Resolves and checks every configuration's knobs; throws LaunchRefused naming the configuration. */
export function planConfigurations(o: LaunchOptions): Planned[] {
  const overrides = envFromFlags(o.extraArgs ?? []);
  // One seed for the whole launch (unless SEED is given): every configuration then writes the same vectors and
  // asks the same query vectors, so configurations are compared on identical questions.
  if (o.profile.env.SEED === undefined && overrides.SEED === undefined) overrides.SEED = String(drawSeed());
  const caller = o.env ?? process.env;
  const service = o.profile.emulator === null;
  const configurations = o.profile.configurations.map((configuration) => {
    const env = configurationEnv(o.profile, configuration, overrides);
    // Validation sees the target the run will see: the emulator (any loopback URL) or the caller's service settings.
    const targetEnv: Record<string, string | undefined> = service
      ? {
          TURBOPUFFER_API_KEY: caller.TURBOPUFFER_API_KEY,
          TURBOPUFFER_REGION: caller.TURBOPUFFER_REGION,
          TURBOPUFFER_BASE_URL: caller.TURBOPUFFER_BASE_URL,
        }
      : { TURBOPUFFER_BASE_URL: 'http://127.0.0.1:8787' };
    let config: FilterCostConfig;
    try {
      config = readFilterCostConfig({ ...targetEnv, ...env });
    } catch (error) {
      throw new LaunchRefused(`configuration ${JSON.stringify(configuration)}: ${(error as Error).message}`);
    }
    return { env, config, plan: planFilterCost(config, planCells(config).cells) };
  });
  const known = configurations.map((p) => p.config.label);
  for (const label of o.only ?? [])
    if (!known.includes(label))
      throw new LaunchRefused(
        `--configs: no configuration ${label} in profile ${o.profileName}; use ${known.join(', ')}`,
      );
  return configurations.filter((p) => !o.only || o.only.includes(p.config.label));
}

/** The real service bills every run: print the summed plan and refuse unless TPUF_BENCH_CONFIRM_COST=1. */
function checkServiceCost(
  planned: Planned[],
  repeats: number,
  env: NodeJS.ProcessEnv,
  log: (s: string) => void,
) {
  const sum = (f: (p: FilterCostPlan) => number) => repeats * planned.reduce((s, p) => s + f(p.plan), 0);
  const total =
    `${planned.length * repeats} namespaces in sequence: write ${sum((p) => p.rows)} rows ` +
    `(${formatBytes(sum((p) => p.bytes))} logical), start at most ${sum((p) => p.queries)} queries, ` +
    `${sum((p) => p.recallQueries)} recall probe queries and ${sum((p) => p.metadataReads)} metadata reads ` +
    `(about ${formatBytes(sum((p) => p.billableQueriedBytes))} billable bytes queried) over at most ` +
    `${sum((p) => p.durationS)} s`;
  for (const p of planned) log(formatFilterCostPlan(p.config, p.plan));
  log(`total: ${total}`);
  if (env.TPUF_BENCH_CONFIRM_COST !== '1')
    throw new LaunchRefused(
      `TPUF_BENCH_CONFIRM_COST: the target is the real turbopuffer service, which bills writes, storage and ` +
        `queries (${total}). Set TPUF_BENCH_CONFIRM_COST=1 to accept, or unset TURBOPUFFER_API_KEY to run ` +
        'against the local emulator',
    );
}

export async function launchFilterCost(o: LaunchOptions): Promise<LaunchResult> {
  const log = o.log ?? ((line: string) => process.stderr.write(`filter-cost: ${line}\n`));
  const repeats = o.repeats ?? 1;
  const caller = o.env ?? process.env;
  if (o.profile.emulator === null && !caller.TURBOPUFFER_API_KEY)
    throw new LaunchRefused(
      `TURBOPUFFER_API_KEY: profile ${o.profileName} targets the real service and needs the key in the environment; ` +
        'use the local profile to run against the emulator',
    );
  const planned = planConfigurations(o);
  if (o.profile.emulator === null) checkServiceCost(planned, repeats, caller, log);

  const stamp = compactTimestamp(Date.now());
  const dir = join(o.resultsParent ?? join(root, o.profile.resultsParent), `filter-cost-${stamp}`);
  const samplesDir = join(o.samplesParent ?? join(root, 'results/scratch'), `filter-cost-${stamp}-samples`);
  mkdirSync(dir, { recursive: true });
  mkdirSync(samplesDir, { recursive: true });
  const manifest: FilterCostManifest = {
    experiment: 'filter-cost',
    profile: o.profileName,
    description: o.profile.description,
    started_at: new Date().toISOString(),
    target: o.profile.emulator === null ? 'turbopuffer' : 'emulator',
    emulator_flags: o.profile.emulator,
    env: { ...o.profile.env, SEED: planned[0]?.env.SEED ?? '' },
    extra_args: redactArgs(o.extraArgs ?? []),
    cpus: cpus().length,
    runs: [],
  };
  const saveManifest = () => writeFileSync(join(dir, 'runs.json'), jsonFileText(manifest));
  saveManifest();
  log(`${o.profile.description}; results in ${relative(root, dir) || dir}`);

  // Ctrl+C or SIGTERM: runBench forwards it to the current run (which ends gracefully, writing its result); the
  // loop then stops instead of starting the next configuration, and the report covers the runs that finished.
  let stopping = false;
  const stop = () => {
    stopping = true;
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  let exitCode = 0;
  try {
    for (let repeat = 1; repeat <= repeats && !stopping; repeat++) {
      for (const [i, p] of planned.entries()) {
        if (stopping) break;
        log(`run ${manifest.runs.length + 1} of ${planned.length * repeats}: ${p.config.label}`);
        const entry = await runOne(o, p, {
          dir,
          samples: join(samplesDir, `${p.config.label}-${repeat}-${i}.ndjson.gz`),
          // The nth run of this configuration in this launch (the local profile runs its baseline twice).
          repeat: manifest.runs.filter((run) => run.configuration === p.config.label).length + 1,
        });
        manifest.runs.push(entry);
        saveManifest();
        if (entry.exit_code !== 0) {
          exitCode = 1;
          log(
            `${entry.configuration} exited with ${entry.exit_code}${entry.result ? '' : ' and wrote no result'}`,
          );
        }
      }
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  if (stopping) {
    exitCode = 1;
    log('interrupted: no further configurations were started');
  }
  const report = await writeReport(dir);
  log(`report: ${relative(root, report.markdown)} and ${relative(root, report.json)}`);
  return { exitCode, dir, manifest, report };
}

/** One configuration's `bench run`, against a fresh emulator or the service; returns its runs.json entry. */
async function runOne(
  o: LaunchOptions,
  p: Planned,
  at: { dir: string; samples: string; repeat: number },
): Promise<FilterCostRunEntry> {
  const before = new Set(readdirSync(at.dir));
  // The runner's working directory is the repository: paths inside it stay relative (results record RESULTS_DIR).
  const path = (f: string) => (f.startsWith(root) ? relative(root, f) : f);
  const runArgs = [
    'build/filter-cost.js',
    ...envFlags({ ...p.env, RESULTS_DIR: path(at.dir) }),
    '--out',
    `json=${path(at.samples)}`,
    ...(o.extraArgs ?? []),
  ];
  const startedAt = new Date().toISOString();
  const loadStart = loadavg()[0];
  const output = { stdio: o.stdio, onOutput: o.onOutput };
  const code =
    o.profile.emulator === null
      ? await runBench({ runArgs, baseEnv: o.env ?? process.env, ...output })
      : await runWithEmulator({ emulatorArgs: o.profile.emulator, runArgs, ...output });
  const written = readdirSync(at.dir).filter(
    (f) => f.endsWith('.json') && f !== 'runs.json' && !before.has(f),
  );
  return {
    configuration: p.config.label,
    repeat: at.repeat,
    exit_code: code,
    result: written[0] ?? null,
    samples: relative(root, at.samples),
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    load_average: [round2(loadStart), round2(loadavg()[0])],
  };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
