// Whether a file the run will write can be written, asked before the test starts, and the Go-style text of a write
// that failed anyway (k6's own messages embed Go's `open PATH: no such file or directory`).
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BenchError } from '../../core/errors';
import { EXIT_GENERIC_ERROR } from '../../core/exit-codes';

/** A file the run will write, and the flag that names it (for the message). */
export interface OutputTarget {
  /** e.g. `--out json`, `--summary-export`. */
  flag: string;
  path: string;
}

function isDirectory(path: string): boolean | undefined {
  try {
    return statSync(path).isDirectory();
  } catch {
    return undefined;
  }
}

function canWrite(path: string, mode = constants.W_OK): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

/** Why a file cannot be written, and what to do about it. */
export interface WriteProblem {
  problem: string;
  fix: string;
}

/** What stops `path` from being created or truncated; undefined when it can be written. */
export function whyNotWritable(path: string): WriteProblem | undefined {
  const absolute = resolve(path);
  const existing = isDirectory(absolute);
  if (existing === true) return { problem: `"${path}" is a directory`, fix: 'name a file inside it' };
  if (existing === false) {
    if (canWrite(absolute)) return undefined;
    return { problem: `"${path}" is not writable`, fix: 'fix its permissions, or choose another path' };
  }
  const dir = dirname(absolute);
  const dirState = isDirectory(dir);
  if (dirState === undefined)
    return { problem: `directory "${dir}" does not exist`, fix: 'create it first, or choose another path' };
  if (dirState === false) return { problem: `"${dir}" is not a directory`, fix: 'choose another path' };
  if (!canWrite(dir, constants.W_OK | constants.X_OK))
    return {
      problem: `directory "${dir}" is not writable`,
      fix: 'fix its permissions, or choose another path',
    };
  return undefined;
}

/**
 * Throws one error listing every target that cannot be written (stdout targets, "" and "-", are skipped). k6 exits
 * 255 when an output file cannot be opened (before the test starts, no exit code of its own), so bench does too.
 */
export function checkOutputTargets(targets: readonly OutputTarget[]): void {
  const problems: string[] = [];
  for (const { flag, path } of targets) {
    if (path === '' || path === '-') continue;
    const why = whyNotWritable(path);
    if (why) problems.push(`${flag}: cannot write "${path}": ${why.problem} (${why.fix})`);
  }
  if (problems.length === 0) return;
  const message =
    problems.length === 1 ? problems[0] : `outputs cannot be written:\n\t- ${problems.join('\n\t- ')}`;
  throw new BenchError(message, EXIT_GENERIC_ERROR);
}

/**
 * Go's text for a failed file operation, as k6 shows it: `open results/x.md: no such file or directory` (Node says
 * `ENOENT: no such file or directory, open 'results/x.md'`).
 */
export function goFileError(error: unknown, path: string, op = 'open'): string {
  const e = error as NodeJS.ErrnoException;
  const described = /^[A-Z0-9_]+: ([^,]+)/.exec(e?.message ?? '');
  const reason = described ? described[1] : (e?.message ?? String(error));
  return `${e?.syscall ?? op} ${path}: ${reason}`;
}
