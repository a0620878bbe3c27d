// `bench merge`: one result from the instances of a test that ran elsewhere (k6-operator runners, Grafana k6, other
// machines). Given their --out json streams, it replays every sample into one run of the summary machinery
// (runner/merge/merge-streams.ts); given --summary-export files instead, it merges what aggregates allow
// (runner/merge/summary-exports.ts) and says what it had to leave out.
import { writeFileSync } from 'node:fs';
import { usageError } from '../../core/errors';
import {
  kv,
  type MergeStreamsInput,
  mergeStreams,
  mergeSummaryExports,
  readExport,
  type SummaryExport,
} from '../../runner';

export const MERGE_USAGE = `Usage: bench merge [flags] FILE...

Merges the results of a test's instances that ran elsewhere into one result.
FILEs are --out json streams (NDJSON, .gz too) or --summary-export files, not mixed.

Flags:
  -s, --script FILE          the test's script: its thresholds and handleSummary() run on the merged samples
                             (without it, thresholds come from the streams' Metric lines, submetric ones excepted)
      --setup-data FILE      what setup() returned, for --script's handleSummary(): a JSON file of that value, or a
                             bench experiment result JSON, whose setup_data member holds it
  -e, --env NAME=VALUE       add NAME=VALUE to __ENV for --script (repeatable; the environment is in __ENV too)
  -o, --out json=FILE        write the merged samples (also csv=FILE); repeatable
      --summary-export FILE  write the merged summary export (the only output when merging exports)
      --summary-mode MODE    compact (default), full or disabled
      --no-color             no colors in the summary
`;

type MergeFlags = MergeStreamsInput;

function parseMergeFlags(argv: string[]): MergeFlags | 'help' {
  const f: MergeFlags = { files: [], out: [], env: {}, summaryMode: 'compact', noColor: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (a.includes('=') && a.startsWith('--')) return a.slice(a.indexOf('=') + 1);
      if (i + 1 >= argv.length) throw usageError(`${a} needs a value`, 'bench merge --help');
      return argv[++i];
    };
    const name = a.startsWith('--') ? a.slice(2).split('=')[0] : a;
    if (name === 'help' || a === '-h') return 'help';
    else if (name === 'script' || a === '-s') f.script = value();
    else if (name === 'out' || a === '-o') f.out.push(value());
    else if (name === 'setup-data') f.setupData = value();
    else if (name === 'env' || a === '-e') {
      const [k, v] = kv(value(), 'env');
      f.env[k] = v;
    } else if (name === 'summary-export') f.summaryExport = value();
    else if (name === 'summary-mode') {
      const mode = value();
      if (mode !== 'compact' && mode !== 'full' && mode !== 'disabled')
        throw usageError(`--summary-mode must be compact, full or disabled, got "${mode}"`);
      f.summaryMode = mode;
    } else if (name === 'no-color') f.noColor = true;
    else if (a.startsWith('-')) throw usageError(`unknown flag ${a}`, 'bench merge --help');
    else f.files.push(a);
  }
  if (f.files.length === 0) throw usageError('bench merge needs at least one file', 'bench merge --help');
  if (f.setupData !== undefined && f.script === undefined)
    throw usageError(
      '--setup-data is for the handleSummary() of --script: give the script too',
      'bench merge --help',
    );
  return f;
}

export async function mergeCommand(argv: string[]): Promise<number> {
  const f = parseMergeFlags(argv);
  if (f === 'help') {
    process.stdout.write(MERGE_USAGE);
    return 0;
  }
  const exports = f.files.map(readExport);
  if (exports.every((e) => e === undefined)) return mergeStreams(f);
  if (exports.some((e) => e === undefined))
    throw usageError(
      'bench merge got both summary exports and --out json streams: give one kind',
      'bench merge --help',
    );
  if (f.script || f.out.length > 0)
    throw usageError(
      '--script, --setup-data and --out need --out json streams: summary exports hold no samples',
      'bench merge --help',
    );
  const merged = mergeSummaryExports(exports as SummaryExport[]);
  const text = `${JSON.stringify(merged.export, null, 4)}\n`;
  if (f.summaryExport) writeFileSync(f.summaryExport, text);
  else process.stdout.write(text);
  for (const note of merged.notes) process.stderr.write(`bench merge: ${note}\n`);
  return 0;
}
