// `bench compare A B`: per cell, how B's latency percentiles, errors and success QPS changed against A's, with an
// interval or significance mark from the data both keep; A and B are result files or directories of repeats, and A
// may be `published` (the published table of B's experiment). `--fail-on` gates exit 99, as crossed thresholds do.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { BenchError, usageError } from '../../runner/errors';
import { EXIT_GENERIC_ERROR, EXIT_THRESHOLDS_FAILED } from '../../runner/exit-codes';
import { classifyResult, type KnownResult } from '../result-report';
import { type ComparableCell, comparableCells, type ExperimentName, publishedCells } from './comparable';
import { compareRuns } from './compare';
import { configDifferences } from './config-differences';
import { evaluateGates, type Gate, parseGate } from './gates';
import { compareMarkdown, compareText } from './render';

export const COMPARE_USAGE = `Usage: bench compare [flags] A B

Compares B against A cell by cell: client p50/p95/p99, error share and success QPS, each as A → B with its
change, an interval or a significance mark (* significant at 95 %, ≈ not, ? nothing to judge it with).
A and B are result JSON files (make backlog, make filter-cost) or directories of repeats of one experiment
(the mean over the repeats, Welch's t-test); A may be the word published (the published table of B's experiment).
Knobs the two ran with differently (seed, emulator port and results directory aside) are listed above the table.

Flags:
      --fail-on GATE     exit 99 when a cell's change crosses GATE, e.g. 'p95>+10%', 'p99>5' (ms),
                         'errors>1' (percentage points), 'qps<-5%'; repeatable
      --significant      gates trip only on changes marked significant
      --markdown FILE    also write the comparison as Markdown
      --format FORMAT    text (default) or markdown on stdout
  -h, --help             this text
`;

interface Side {
  experiment: ExperimentName;
  runs: ComparableCell[][];
  description: string;
  /** The first run's recorded knobs; null for the published table. */
  config: Record<string, unknown> | null;
}

function configOf(r: KnownResult): Record<string, unknown> {
  const config = (r.result as { config?: unknown }).config;
  return typeof config === 'object' && config !== null ? (config as Record<string, unknown>) : {};
}

function readResult(file: string): KnownResult | { experiment: null; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BenchError(`${file}: not readable as JSON (${(error as Error).message})`, EXIT_GENERIC_ERROR);
  }
  return classifyResult(json);
}

function describe(results: readonly { file: string; r: KnownResult }[], path: string): string {
  const commit = (r: KnownResult) =>
    (r.result.versions as { commit?: string } | undefined)?.commit ?? 'unknown';
  if (results.length === 1) return `${path} (${results[0].r.experiment}, commit ${commit(results[0].r)})`;
  const commits = [...new Set(results.map((x) => commit(x.r)))];
  return `${path}: ${results.length} repeats of ${results[0].r.experiment} (commit ${commits.join(', ')})`;
}

function loadSide(path: string): Side {
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
    const r = readResult(file);
    if (r.experiment !== null) results.push({ file, r });
    else if (files.length === 1) throw usageError(`${file}: ${r.reason}`);
  }
  if (results.length === 0) throw usageError(`${path}: no result of make backlog or make filter-cost`);
  const experiments = [...new Set(results.map((x) => x.r.experiment))];
  if (experiments.length > 1)
    throw usageError(
      `${path} mixes results of ${experiments.join(' and ')}: repeats must be of one experiment`,
    );
  return {
    experiment: results[0].r.experiment,
    runs: results.map((x) => comparableCells(x.r)),
    description: describe(results, path),
    config: configOf(results[0].r),
  };
}

export async function compareCommand(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  function parse(args: string[]) {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        'fail-on': { type: 'string', multiple: true },
        significant: { type: 'boolean' },
        markdown: { type: 'string' },
        format: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  }
  try {
    parsed = parse(argv);
  } catch (error) {
    throw usageError((error as Error).message, 'bench compare --help');
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(COMPARE_USAGE);
    return 0;
  }
  if (positionals.length !== 2)
    throw usageError('bench compare needs two sides: A B', 'bench compare --help');
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'markdown')
    throw usageError(`--format must be text or markdown, got "${format}"`);
  let gates: Gate[];
  try {
    gates = (values['fail-on'] ?? []).map(parseGate);
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const [pa, pb] = positionals;
  const b = loadSide(pb);
  const a: Side =
    pa === 'published'
      ? {
          experiment: b.experiment,
          runs: [publishedCells(b.experiment, b.runs[0])],
          description: `the published ${b.experiment === 'backlog' ? 'table' : 'headline and sweep tables'} (no counts or intervals: no change can be judged, each is marked ?)`,
          config: null,
        }
      : loadSide(pa);
  if (a.experiment !== b.experiment)
    throw usageError(
      `A is a ${a.experiment} result and B a ${b.experiment} one: compare results of one experiment`,
    );
  const comparison = compareRuns(a.runs, b.runs);
  const trips = evaluateGates(gates, comparison.cells, values.significant === true);
  const sides = {
    a: a.description,
    b: b.description,
    configDiffers: a.config && b.config ? configDifferences(a.config, b.config) : [],
  };
  if (values.markdown)
    writeFileSync(values.markdown, compareMarkdown(comparison, sides, trips, gates.length));
  process.stdout.write(
    format === 'markdown'
      ? compareMarkdown(comparison, sides, trips, gates.length)
      : compareText(comparison, sides, trips, gates.length),
  );
  if (trips.length === 0) return 0;
  process.stderr.write(
    `bench compare: ${trips.length} gate${trips.length > 1 ? 's' : ''} crossed (${[...new Set(trips.map((t) => t.gate.text))].join(', ')}) in ${basename(pb)}\n`,
  );
  return EXIT_THRESHOLDS_FAILED;
}
