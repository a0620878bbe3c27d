// bin entry of `bench`: picks the subcommand from one table and turns the final error into the process exit code.
// Each command lives in cli/commands/<name>.ts and calls its part's public entry (runner/, emulator/, report/).
import { BenchError, exitCodeOf } from '../core/errors';
import { EXIT_GENERIC_ERROR } from '../core/exit-codes';

type Command = (argv: string[]) => Promise<number>;

interface CommandEntry {
  usage: string;
  summary: string;
  /** Loaded on demand, so `bench run` never loads the report's libraries (ECharts alone is a second of CPU). */
  load: () => Promise<Command>;
  /** A run, inspect, merge, report, compare or publish has closed what it started when it returns. */
  finite: boolean;
}

const COMMANDS: Record<string, CommandEntry> = {
  run: {
    usage: 'run <script.js|script.ts>',
    summary: 'run a k6 script (k6-compatible runner; bench run --help lists the flags)',
    load: async () => (await import('./commands/run')).runCommand,
    finite: true,
  },
  inspect: {
    usage: 'inspect <script>',
    summary: "print the script's consolidated options as JSON",
    load: async () => (await import('./commands/inspect')).inspectCommand,
    finite: true,
  },
  merge: {
    usage: 'merge FILE...',
    summary: "merge the --out json streams (or summary exports) of a test's instances",
    load: async () => (await import('./commands/merge')).mergeCommand,
    finite: true,
  },
  report: {
    usage: 'report RESULT.json|DIR',
    summary: "charts (SVG, embedded in the result's Markdown) and an HTML report of a result",
    load: async () => (await import('./commands/report')).reportCommand,
    finite: true,
  },
  compare: {
    usage: 'compare A B',
    summary: 'per-cell changes between two results (or directories of repeats), with gates',
    load: async () => (await import('./commands/compare')).compareCommand,
    finite: true,
  },
  vendor: {
    usage: 'vendor <script>',
    summary: 'bundle the remote modules a script imports into it, for runs with no network',
    load: async () => (await import('./commands/vendor')).vendorCommand,
    finite: true,
  },
  version: {
    usage: 'version',
    summary: 'print the version (--json for JSON)',
    load: async () => (await import('./commands/version')).versionCommand,
    finite: true,
  },
  emulator: {
    usage: 'emulator',
    summary: 'start the local turbopuffer-compatible server',
    // Returns only when it shuts down.
    load: async () => (await import('./commands/emulator')).emulatorCommand,
    finite: false,
  },
  publish: {
    usage: 'publish [RUN]',
    summary: 'copy a run from runs/ into results/ with its charts, report and screenshot',
    load: async () => (await import('./commands/publish')).publishCommand,
    finite: true,
  },
};

const ALIASES: Record<string, string> = { '--version': 'version' };

const USAGE = `Usage: bench <command> [flags]

Commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage.padEnd(28)}${c.summary}`)
  .join('\n')}
`;

async function main(argv: string[]): Promise<number> {
  const [given, ...rest] = argv;
  const name = ALIASES[given] ?? given;
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    process.stderr.write(USAGE);
    return given === undefined || given === 'help' || given === '--help' ? 0 : EXIT_GENERIC_ERROR;
  }
  try {
    return await (await entry.load())(rest);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = error instanceof BenchError && error.hint ? ` (hint: ${error.hint})` : '';
    if (error instanceof BenchError) process.stderr.write(`bench: ${message}${hint}\n`);
    else process.stderr.write(`bench: internal error: ${error instanceof Error ? error.stack : message}\n`);
    return exitCodeOf(error);
  }
}

const argv = process.argv.slice(2);
process.exitCode = await main(argv);
// A finite command has closed everything it started by now; should a stray handle still hold the event loop, exit
// anyway instead of hanging.
const command = COMMANDS[ALIASES[argv[0]] ?? argv[0]];
if (command?.finite) setTimeout(() => process.exit(), 3000).unref();
