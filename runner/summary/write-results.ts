// Writes the end-of-test results (handleSummary's map, the text summary, --summary-export) the way k6 does: each
// target on its own, so one that fails loses nothing else; the failures come back as one message in k6's words.
import { writeFileSync } from 'node:fs';
import { goFileError, whyNotWritable } from '../outputs/writable';

/** `stdout`, `stderr` or a file path (relative to the working directory), and what to write there. */
export type SummaryResult = [target: string, content: string | Uint8Array];

export interface ResultStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * Writes every result and returns undefined, or k6's consolidated error text ("Could not save some summary
 * information:" and one `- could not open 'PATH': open PATH: no such file or directory` line per failed file),
 * each line followed by what to do about it. k6 creates no missing directories, and neither does bench.
 */
export function writeSummaryResults(
  results: readonly SummaryResult[],
  streams: ResultStreams,
): string | undefined {
  const failures: string[] = [];
  for (const [target, content] of results) {
    if (target === 'stdout' || target === 'stderr') {
      streams[target].write(content);
      continue;
    }
    try {
      writeFileSync(target, content);
    } catch (error) {
      failures.push(`could not open '${target}': ${goFileError(error, target)}${fixFor(target)}`);
    }
  }
  if (failures.length === 0) return undefined;
  return ['Could not save some summary information:', ...failures.map((f) => `\t- ${f}`)].join('\n');
}

function fixFor(target: string): string {
  const why = whyNotWritable(target);
  return why ? ` (${why.problem}: ${why.fix})` : '';
}
