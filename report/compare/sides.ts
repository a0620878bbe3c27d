// One side of `bench compare`: a result file, a directory of repeats of one experiment, or the published table of
// the other side's experiment, as the cells compare.ts reads.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BenchError, usageError } from '../../core/errors';
import { EXIT_GENERIC_ERROR } from '../../core/exit-codes';
import type { Experiment } from '../../lib/experiment';
import { classifyResult, type KnownResult } from '../result-report';
import { type ComparableCell, comparableCells } from './comparable';

export interface Side {
  experiment: string;
  definition: Experiment;
  runs: ComparableCell[][];
  description: string;
  /** The first run's recorded knobs; null for the published table. */
  config: Record<string, unknown> | null;
}

function configOf(r: KnownResult): Record<string, unknown> {
  const config = (r.result as { config?: unknown }).config;
  return typeof config === 'object' && config !== null ? (config as Record<string, unknown>) : {};
}

async function readResult(file: string): Promise<KnownResult | { experiment: null; reason: string }> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BenchError(`${file}: not readable as JSON (${(error as Error).message})`, EXIT_GENERIC_ERROR);
  }
  return await classifyResult(json);
}

function describe(results: readonly { file: string; r: KnownResult }[], path: string): string {
  const commit = (r: KnownResult) =>
    (r.result as { versions?: { commit?: string } }).versions?.commit ?? 'unknown';
  if (results.length === 1) return `${path} (${results[0].r.experiment}, commit ${commit(results[0].r)})`;
  const commits = [...new Set(results.map((x) => commit(x.r)))];
  return `${path}: ${results.length} repeats of ${results[0].r.experiment} (commit ${commits.join(', ')})`;
}

export async function loadSide(path: string): Promise<Side> {
  let files: string[];
  try {
    files = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => join(path, f))
      : [path];
  } catch {
    throw usageError(`${path}: no such file or directory`);
  }
  const results: { file: string; r: KnownResult }[] = [];
  for (const file of files) {
    const r = await readResult(file);
    if (r.experiment !== null) results.push({ file, r });
    else if (files.length === 1) throw usageError(`${file}: ${r.reason}`);
  }
  if (results.length === 0) throw usageError(`${path}: no result of any experiment`);
  const experiments = [...new Set(results.map((x) => x.r.experiment))];
  if (experiments.length > 1)
    throw usageError(
      `${path} mixes results of ${experiments.join(' and ')}: repeats must be of one experiment`,
    );
  return {
    experiment: results[0].r.experiment,
    definition: results[0].r.definition,
    runs: results.map((x) => comparableCells(x.r)),
    description: describe(results, path),
    config: configOf(results[0].r),
  };
}

/** The published table of `of`'s experiment, as side A. */
export function publishedSide(of: Side): Side {
  return {
    experiment: of.experiment,
    definition: of.definition,
    runs: [of.definition.publishedCells(of.runs[0])],
    description: `${of.definition.publishedDescription} (no counts or intervals: no change can be judged, each is marked ?)`,
    config: null,
  };
}
