// `bench publish [RUN]` (`make publish RUN=...`): copies one run's result pair from runs/ into results/, draws that
// copy's charts, HTML report and screenshot (bench report --screenshot of exactly the copied result, whatever its
// name), and says how to commit them. The newest run in runs/ by default; paths are the working directory's.
import { readFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { BenchError } from '../../core/errors';
import { EXIT_GENERIC_ERROR } from '../../core/exit-codes';
import { DEFAULT_RESULTS_DIR } from '../../lib/common-knobs';
import {
  classifyResult,
  newestRun,
  PublishRefused,
  publishRun,
  screenshotPages,
  writeResultReport,
} from '../../report';

export const PUBLISH_USAGE = `Usage: bench publish [RUN]

Copies a run's result pair (RUN.md and RUN.json) from ${DEFAULT_RESULTS_DIR}/ into results/ to commit it, and draws
its charts, HTML report and screenshot there. RUN is runs/<name>.json, .md or runs/<name>; the newest run by
default. An aborted run, a run built from a dirty tree and a name results/ already has are refused.
`;

export async function publishCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(PUBLISH_USAGE);
    return 0;
  }
  const root = process.cwd();
  const say = (line: string) => process.stdout.write(`publish: ${line}\n`);
  try {
    const run = argv[0] ?? newestRun(resolve(root, DEFAULT_RESULTS_DIR));
    if (!run) throw new PublishRefused(`no run in ${DEFAULT_RESULTS_DIR}/ yet: make backlog writes one`);
    const copied = publishRun(run, resolve(root, 'results'));
    const base = relative(root, copied[0]).replace(/\.md$/, '');
    say(`copied ${relative(root, dirname(resolve(run))) || '.'}/${basename(run)}'s pair into results/`);
    const known = await classifyResult(JSON.parse(readFileSync(copied[1], 'utf8')));
    if (known.experiment === null) say(`no charts: ${known.reason}`);
    else {
      const outcome = writeResultReport(copied[1], known);

      const pngs = await screenshotPages([outcome.html]);
      for (const file of [...outcome.written, ...pngs]) say(`wrote ${relative(root, file)}`);
    }
    say(`commit it (with its charts and report) with: git add ${base}.*`);
    return 0;
  } catch (error) {
    if (error instanceof PublishRefused) throw new BenchError(error.message, EXIT_GENERIC_ERROR);
    throw error;
  }
}
