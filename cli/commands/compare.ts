// `bench compare A B`: per cell, how B's latency percentiles, errors and success QPS changed against A's, with an
// interval or significance mark from the data both keep; A and B are result files or directories of repeats, and A
// may be `published` (the published table of B's experiment). `--fail-on` gates exit 99, as crossed thresholds do.
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { usageError } from '../../core/errors';
import { EXIT_THRESHOLDS_FAILED } from '../../core/exit-codes';
import {
  compareMarkdown,
  compareRuns,
  compareText,
  configDifferences,
  evaluateGates,
  type Gate,
  loadSide,
  parseGate,
  publishedSide,
  type Side,
} from '../../report';

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
  const b = await loadSide(pb);
  const a: Side = pa === 'published' ? publishedSide(b) : await loadSide(pa);
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
