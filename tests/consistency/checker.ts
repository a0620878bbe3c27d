// The Go checker (tests/consistency/checker/, porcupine as a library): built with this machine's Go into
// .cache/go-bin/ when missing or older than its sources (`make consistency-checker` builds it the same way), and run
// on one history file.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE = join(ROOT, 'tests', 'consistency', 'checker');
const CHECKER = join(ROOT, '.cache', 'go-bin', 'consistency-checker');

/** Builds the checker when it is missing or older than any of its sources; returns its path. */
export function buildChecker(): string {
  const newest = Math.max(
    ...readdirSync(SOURCE)
      .filter((f) => /\.(go|mod|sum)$/.test(f))
      .map((f) => statSync(join(SOURCE, f)).mtimeMs),
  );
  if (existsSync(CHECKER) && statSync(CHECKER).mtimeMs >= newest) return CHECKER;
  mkdirSync(join(ROOT, '.cache', 'go-bin'), { recursive: true });
  try {
    execFileSync('go', ['build', '-buildvcs=false', '-o', CHECKER, '.'], {
      cwd: SOURCE,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
    throw new Error(
      `building the consistency checker failed (go build in ${SOURCE}): ${stderr || (error as Error).message}; ` +
        'it needs Go (https://go.dev/doc/install) on PATH and the Go module proxy for porcupine',
    );
  }
  return CHECKER;
}

export interface Verdict {
  result: 'ok' | 'violation';
  ops: number;
  unknown: number;
  ms: number;
  /** porcupine's verdict on the writes and current reads: Ok, Illegal, or Unknown when it timed out. */
  porcupine: 'Ok' | 'Illegal' | 'Unknown';
  /** The log order is a linearization (checked whenever the history has it). */
  witness: boolean;
  problems?: string[];
  minimisedOps?: number;
  /** The minimised history and its visualisation (violations, with an output directory). */
  history?: string;
  html?: string;
  /** For a violation: the minimised history, one operation a line. */
  message?: string;
}

/** Checks one history file; a violation's minimised history and HTML go to `outDir`. */
export function runChecker(historyPath: string, outDir?: string, timeoutSeconds = 20): Verdict {
  // Go's flag package stops at the first argument that is not a flag: flags first.
  const args = ['-timeout', `${timeoutSeconds}s`, ...(outDir ? ['-out', outDir] : []), historyPath];
  const run = spawnSync(buildChecker(), args, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (run.status === 2 || run.status === null || run.error)
    throw new Error(`consistency checker failed on ${historyPath}: ${run.stderr || run.error?.message}`);
  return JSON.parse(run.stdout) as Verdict;
}
