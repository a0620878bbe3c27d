// `make publish [RUN=runs/<name>.json]`: copies one run's result pair (.md and .json) from runs/, where every run
// writes, into results/, where committed results live, draws that copy's charts, HTML report and screenshot
// (bench report --screenshot of exactly the copied result, whatever its name), and says how to commit them. The
// newest run by default. Refuses an aborted run, a run built from a dirty tree, and a name results/ already has.
//
//   tsx scripts/publish-run.ts [runs/<name>.json | runs/<name>.md | runs/<name>]
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RESULTS_DIR } from '../lib/common-knobs';
import { screenshotPages } from '../report/browser';
import { classifyResult, writeResultReport } from '../report/result-report';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A run cannot be published as asked; the message says why. Nothing was copied. */
export class PublishRefused extends Error {}

/** The fields of a result JSON this reads (both experiments have them). */
interface Publishable {
  status?: string;
  status_reason?: string | null;
  versions?: { dirty?: boolean | null; commit?: string };
}

/** The newest `.json` result in `dir` (by modification time), or null. */
export function newestRun(dir: string): string | null {
  if (!existsSync(dir)) return null;
  const runs = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && existsSync(join(dir, f.replace(/\.json$/, '.md'))))
    .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  return runs.length > 0 ? join(dir, runs[0].f) : null;
}

/** Copies the pair into `resultsDir`; returns the two new paths. */
export function publishRun(run: string, resultsDir: string): string[] {
  const base = run.replace(/\.(json|md)$/, '');
  const pair = [`${base}.md`, `${base}.json`];
  for (const file of pair) if (!existsSync(file)) throw new PublishRefused(`${file} does not exist`);
  const result = JSON.parse(readFileSync(pair[1], 'utf8')) as Publishable;
  if (result.status === 'aborted')
    throw new PublishRefused(
      `${pair[1]} is an aborted run (${result.status_reason ?? 'no reason recorded'}): publish a complete one`,
    );
  if (result.versions?.dirty === true)
    throw new PublishRefused(
      `${pair[1]} was built from a dirty tree (commit ${result.versions.commit} plus uncommitted changes), so ` +
        'nobody could rerun it from the commit: commit first, then run again',
    );
  mkdirSync(resultsDir, { recursive: true });
  const targets = pair.map((file) => join(resultsDir, basename(file)));
  for (const target of targets) if (existsSync(target)) throw new PublishRefused(`${target} exists already`);
  pair.forEach((file, i) => {
    copyFileSync(file, targets[i]);
  });
  return targets;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const run = process.argv[2] ?? newestRun(join(root, DEFAULT_RESULTS_DIR));
    if (!run) throw new PublishRefused(`no run in ${DEFAULT_RESULTS_DIR}/ yet: make backlog writes one`);
    const copied = publishRun(run, join(root, 'results'));
    const base = relative(root, copied[0]).replace(/\.md$/, '');
    process.stdout.write(
      `publish: copied ${relative(root, dirname(run)) || '.'}/${basename(run)}'s pair into results/\n`,
    );
    const known = classifyResult(JSON.parse(readFileSync(copied[1], 'utf8')));
    if (known.experiment === null) process.stdout.write(`publish: no charts: ${known.reason}\n`);
    else {
      const outcome = writeResultReport(copied[1], known);
      const pngs = await screenshotPages([outcome.html]);
      for (const file of [...outcome.written, ...pngs])
        process.stdout.write(`publish: wrote ${relative(root, file)}\n`);
    }
    process.stdout.write(`publish: commit it (with its charts and report) with: git add ${base}.*\n`);
  } catch (error) {
    process.stderr.write(`publish: ${(error as Error).message}\n`);
    process.exitCode = error instanceof PublishRefused ? 2 : 1;
  }
}
