// bin entry of `bench`: picks the subcommand and turns the final error into the process exit code.
import { BenchError, exitCodeOf } from '../errors';
import { EXIT_GENERIC_ERROR } from '../exit-codes';

const USAGE = `Usage: bench <command> [flags]

Commands:
  run <script.js|script.ts>   run a k6 script (k6-compatible runner; bench run --help lists the flags)
  inspect <script>            print the script's consolidated options as JSON
  merge FILE...               merge the --out json streams (or summary exports) of a test's instances
  report RESULT.json|DIR      charts (SVG, embedded in the result's Markdown) and an HTML report of a result
  compare A B                 per-cell changes between two results (or directories of repeats), with gates
  version                     print the version (--json for JSON)
  emulator                    start the local turbopuffer-compatible server
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'emulator': {
        const emulator = await import('../../emulator/main');
        return await emulator.main(rest);
      }
      case 'run': {
        const { runCommand } = await import('./run-command');
        return await runCommand(rest);
      }
      case 'merge': {
        const { mergeCommand } = await import('../merge/merge-command');
        return await mergeCommand(rest);
      }
      case 'report': {
        const { reportCommand } = await import('../../report/report-command');
        return await reportCommand(rest);
      }
      case 'compare': {
        const { compareCommand } = await import('../../report/compare/compare-command');
        return await compareCommand(rest);
      }
      case 'inspect': {
        const { inspectCommand } = await import('./inspect-command');
        return await inspectCommand(rest);
      }
      case 'version':
      case '--version': {
        const { versionJson, versionLine } = await import('../version');
        process.stdout.write(`${rest.includes('--json') ? versionJson() : versionLine()}\n`);
        return 0;
      }
      default:
        process.stderr.write(USAGE);
        return command === undefined || command === 'help' || command === '--help' ? 0 : EXIT_GENERIC_ERROR;
    }
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
// A run or inspect has closed everything it started by now; should a stray handle still hold the event loop,
// exit anyway instead of hanging (the emulator returns only when it shuts down, so it is not affected).
if (['run', 'inspect', 'merge', 'report', 'compare'].includes(argv[0]))
  setTimeout(() => process.exit(), 3000).unref();
