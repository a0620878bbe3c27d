// Writes the end-of-test results (handleSummary's map, the text summary, --summary-export) the way k6 does: each
// target on its own, so one that fails loses nothing else; the failures come back as one message in k6's words.
// Beyond k6, a file that cannot be written where the script asked is kept in a new directory under the system's
// temporary directory, named in the message: an experiment's report of a long (or billed) run is never lost to a
// missing RESULTS_DIR.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { goFileError, whyNotWritable } from '../outputs/writable';

/** `stdout`, `stderr` or a file path (relative to the working directory), and what to write there. */
export type SummaryResult = [target: string, content: string | Uint8Array];

export interface ResultStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** The prefix of the directories (under the system's temporary directory) that keep files written nowhere else. */
const UNSAVED_DIR_PREFIX = 'bench-unsaved-';

/**
 * Writes every result and returns undefined, or k6's consolidated error text ("Could not save some summary
 * information:" and one `- could not open 'PATH': open PATH: no such file or directory` line per failed file),
 * each line followed by what to do about it and where the file was kept instead. k6 creates no missing directories,
 * and neither does bench.
 */
export function writeSummaryResults(
  results: readonly SummaryResult[],
  streams: ResultStreams,
): string | undefined {
  const failures: string[] = [];
  let keep: string | undefined;
  for (const [index, [target, content]] of results.entries()) {
    if (target === 'stdout' || target === 'stderr') {
      streams[target].write(content);
      continue;
    }
    try {
      writeFileSync(target, content);
    } catch (error) {
      let kept = '';
      try {
        keep ??= mkdtempSync(join(tmpdir(), UNSAVED_DIR_PREFIX));
        // Two targets may share a file name (a.json in two directories): the index keeps them apart.
        const copy = join(
          keep,
          results.filter(([t]) => basename(t) === basename(target)).length > 1
            ? `${index}-${basename(target)}`
            : basename(target),
        );
        writeFileSync(copy, content);
        kept = `; kept in ${copy}`;
      } catch {
        // Nowhere to keep it either: the message says what failed.
      }
      failures.push(`could not open '${target}': ${goFileError(error, target)}${fixFor(target)}${kept}`);
    }
  }
  if (failures.length === 0) return undefined;
  return ['Could not save some summary information:', ...failures.map((f) => `\t- ${f}`)].join('\n');
}

function fixFor(target: string): string {
  const why = whyNotWritable(target);
  return why ? ` (${why.problem}: ${why.fix})` : '';
}
