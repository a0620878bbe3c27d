// Every experiment make target: `make backlog`, `make backlog-smoke`, `make filter-cost`, `make filter-cost-smoke`.
// Picks the target by one rule and says so (./target-rule.ts), then runs the bundle with the target's profile
// (./experiments.ts). Other arguments go to `bench run` (e.g. `-e SEED=42`, `--out json=runs/out.json`).
//
//   tsx scripts/run-experiment.ts <make target> [bench run flags...]
import { isMakeTarget, MAKE_TARGETS } from './experiments';
import { launchExperiment } from './launch';
import { TargetRefused } from './target-rule';

const [name, ...extra] = process.argv.slice(2);
if (!name || !isMakeTarget(name)) {
  process.stderr.write(
    `usage: tsx scripts/run-experiment.ts <${Object.keys(MAKE_TARGETS).join('|')}> [bench run flags...]\n`,
  );
  process.exit(2);
}
try {
  process.exitCode = (await launchExperiment({ makeTarget: name, extraArgs: extra })).exitCode;
} catch (error) {
  // A refusal before anything ran is the message alone; anything else is a bug and keeps its stack.
  process.stderr.write(
    error instanceof TargetRefused
      ? `${MAKE_TARGETS[name].experiment}: ${error.message}\n`
      : `${MAKE_TARGETS[name].experiment}: ${(error as Error).stack}\n`,
  );
  process.exitCode = 2;
}
