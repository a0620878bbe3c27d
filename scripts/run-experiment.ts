// Every experiment make target: `make backlog`, `make backlog-smoke`, `make filter-cost`, `make filter-cost-smoke`.
// Picks the target by one rule and says so (./target-rule.ts), then runs the bundle with the target's profile
// (./experiments.ts). Other arguments go to `bench run` (e.g. `-e SEED=42`, `--out json=runs/out.json`). Then it
// draws the report (`bench report`) of the result files this run wrote, wherever RESULTS_DIR put them, whether or
// not the thresholds held; the run's exit status is its own.
//
//   node --import tsx scripts/run-experiment.ts <make target> [bench run flags...]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { classifyResult } from '../report/result-report';
import { isMakeTarget, MAKE_TARGETS } from './experiments';
import { launchExperiment } from './launch';
import { TargetRefused } from './target-rule';

const BENCH = fileURLToPath(new URL('../bin/bench.js', import.meta.url));

/** A result bench report draws, not another JSON file the run wrote (a --summary-export, say). */
function isResult(file: string): boolean {
  try {
    return (
      file.endsWith('.json') && classifyResult(JSON.parse(readFileSync(file, 'utf8'))).experiment !== null
    );
  } catch {
    return false;
  }
}

const [name, ...extra] = process.argv.slice(2);
if (!name || !isMakeTarget(name)) {
  process.stderr.write(
    `usage: tsx scripts/run-experiment.ts <${Object.keys(MAKE_TARGETS).join('|')}> [bench run flags...]\n`,
  );
  process.exit(2);
}
try {
  const { exitCode, files } = await launchExperiment({ makeTarget: name, extraArgs: extra });
  const results = files.filter(isResult);
  // A failed report says why on stderr; the run's status stays make's.
  if (results.length > 0)
    spawnSync(process.execPath, [BENCH, 'report', '--quiet', ...results], { stdio: 'inherit' });
  process.exitCode = exitCode;
} catch (error) {
  // A refusal before anything ran is the message alone; anything else is a bug and keeps its stack.
  process.stderr.write(
    error instanceof TargetRefused
      ? `${MAKE_TARGETS[name].experiment}: ${error.message}\n`
      : `${MAKE_TARGETS[name].experiment}: ${(error as Error).stack}\n`,
  );
  process.exitCode = 2;
}
