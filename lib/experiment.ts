// What bench knows about an experiment besides its k6 script: how to run it (profiles), how to check its knobs
// before anything starts, and how to read, chart and compare its results. Each lib/<name>/experiment.ts exports one
// as `experiment`; the launcher (`make <name>`) and the report (`bench report`, `bench compare`) find it by name, so
// adding an experiment adds a folder and an entry file, and no list (docs/adding-an-experiment.md). Pure.
import type { Options } from 'k6/options';
import type { ChartSet } from '../core/chart-spec';
import type { EnvRecord } from './env';

/** One way to run an experiment: the emulator's flags (null = no emulator) and the script's knobs. */
export interface Profile {
  description: string;
  /** Flags for `bench emulator` (one fresh emulator for the run); null = the real service, no emulator. */
  emulator: string[] | null;
  /** Knobs passed with `-e` to `bench run`. */
  env: Record<string, string>;
}

export const PERCENTILES = ['p50', 'p95', 'p99'] as const;
export type Percentile = (typeof PERCENTILES)[number];

/** One cell as `bench compare` reads it, from any experiment's result or published table. */
export interface ComparableCell {
  /** Identity across runs: `idle/strong`, `int-10k/ann_filtered/1/eventual`. */
  key: string;
  client: Record<Percentile, number | null>;
  /** 95 % intervals of the percentiles (experiment 2). */
  ci?: Record<Percentile, [number | null, number | null]>;
  /** The percentile of every time-series bucket inside the cell's measured window (experiment 1 with a series). */
  buckets?: Record<Percentile, number[]>;
  /** null where the source keeps no counts (the published tables). */
  requests: number | null;
  errors: number | null;
  /** Share of the cell's queries that failed (known even where the counts are not). */
  errorRate: number | null;
  /** Successful queries per second, and the window they were counted over. */
  successQps: number | null;
  windowS: number | null;
}

/** A published figure as a cell: no counts, so no change against it can be judged. */
export function publishedCell(
  key: string,
  client: Partial<Record<Percentile, number>>,
  errorRate: number | null,
): ComparableCell {
  return {
    key,
    client: { p50: client.p50 ?? null, p95: client.p95 ?? null, p99: client.p99 ?? null },
    requests: null,
    errors: null,
    errorRate,
    successQps: null,
    windowS: null,
  };
}

export interface Experiment<Result = unknown> {
  /** The folder (lib/<name>/), entry (scenarios/<name>.ts), bundle (build/<name>.js), make target and `experiment` of its results. */
  name: string;
  /** How reports title its results: `Experiment 1: querying while indexing`. */
  title: string;
  /** `make <name>` against a fresh emulator, `make <name>-smoke` (in `make test`), and the real service (null: none). */
  profiles: { local: Profile; smoke: Profile; service: Profile | null };
  /**
   * The k6 options the script exports for these knobs, through the script's own knob checks (the code its init
   * runs): throws the EnvError the script would. The launcher calls it to refuse bad knobs before anything starts.
   */
  options(env: EnvRecord): Options;
  /** A result JSON of this experiment as the report reads it, or why it is not one this version can draw. */
  readResult(json: Record<string, unknown>): { result: Result } | { reason: string };
  charts(result: Result): ChartSet;
  comparableCells(result: Result): ComparableCell[];
  /** The published figures as cells shaped like `like` (a run of this experiment); [] when none were published. */
  publishedCells(like: readonly ComparableCell[]): ComparableCell[];
  /** How `bench compare published B` names them. */
  publishedDescription: string;
}

/**
 * Type-checks an experiment against its own result type, then erases it: callers hand each experiment only results
 * its own readResult produced.
 */
export function defineExperiment<Result>(experiment: Experiment<Result>): Experiment {
  return experiment as unknown as Experiment;
}

/** Experiment names are folder names: lower-case words and dashes, nothing that could leave lib/. */
export const EXPERIMENT_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/**
 * The experiment called `name`, or null when lib/ has none. Both tsx and esbuild resolve this import pattern
 * (esbuild bundles every lib/<name>/experiment.ts it matches), so the launcher and the bundled report agree.
 */
export async function loadExperiment(name: string): Promise<Experiment | null> {
  if (!EXPERIMENT_NAME.test(name)) return null;
  try {
    const module = (await import(`./${name}/experiment.ts`)) as { experiment?: Experiment };
    return module.experiment ?? null;
  } catch (error) {
    if (/not found|Cannot find module|ERR_MODULE_NOT_FOUND/i.test((error as Error).message)) return null;
    throw error;
  }
}
