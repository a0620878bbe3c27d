// Publishing a run: its result pair (.md and .json) copied from runs/, where every run writes, into results/, where
// committed results live. Refuses an aborted run, a run built from a dirty tree, and a name results/ already has.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

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
