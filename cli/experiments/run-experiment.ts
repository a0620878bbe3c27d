// Every experiment make target: `make <experiment>` and `make <experiment>-smoke` (./experiments.ts). Picks the target by one rule and says so (./target-rule.ts), then runs the bundle with the target's profile
// (./experiments.ts). Other arguments go to `bench run` (e.g. `-e SEED=42`, `--out json=runs/out.json`). Then it
// draws the report (`bench report`) of the result files this run wrote, wherever RESULTS_DIR put them, whether or
// not the thresholds held; the run's exit status is its own.
//
//   node --import tsx cli/experiments/run-experiment.ts <make target> [bench run flags...]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { classifyResult } from '../../report';
import { experimentNames, findMakeTarget } from './experiments';
import { launchExperiment } from './launch';
import { TargetRefused } from './target-rule';

const BENCH = fileURLToPath(new URL('../../bin/bench.js', import.meta.url));

/** A result bench report draws, not another JSON file the run wrote (a --summary-export, say). */
async function isResult(file: string): Promise<boolean> {
  try {
    return (
      file.endsWith('.json') &&
      (await classifyResult(JSON.parse(readFileSync(file, 'utf8')))).experiment !== null
    );
  } catch {
    return false;
  }
}

const [name, ...extra] = process.argv.slice(2);
if (name === '--list') {
  // `make help`: every experiment target with the profile it runs.
  for (const experiment of experimentNames())
    for (const t of [experiment, `${experiment}-smoke`]) {
      const found = await findMakeTarget(t);
      if (found) process.stdout.write(`  make ${t.padEnd(18)} ${found.emulator.description}\n`);
    }
  process.exit(0);
}
const target = name ? await findMakeTarget(name) : null;
if (!name || target === null) {
  const names = experimentNames().flatMap((n) => [n, `${n}-smoke`]);
  process.stderr.write(
    `usage: node --import tsx cli/experiments/run-experiment.ts <${names.join('|')}> [bench run flags...]\n`,
  );
  process.exit(2);
}
try {
  const { exitCode, files } = await launchExperiment({ makeTarget: name, extraArgs: extra });
  const results: string[] = [];
  for (const file of files) if (await isResult(file)) results.push(file);
  // A failed report says why on stderr; the run's status stays make's.
  if (results.length > 0)
    spawnSync(process.execPath, [BENCH, 'report', '--quiet', ...results], { stdio: 'inherit' });
  process.exitCode = exitCode;
} catch (error) {
  // A refusal before anything ran is the message alone; anything else is a bug and keeps its stack.
  process.stderr.write(
    error instanceof TargetRefused
      ? `${target.experiment}: ${error.message}\n`
      : `${target.experiment}: ${(error as Error).stack}\n`,
  );
  process.exitCode = 2;
}
