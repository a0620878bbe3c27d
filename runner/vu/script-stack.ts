// Script errors as k6 logs them: the message and the script's own stack frames, without the runner's.
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isError } from '../modules/cross-realm';
import { type ColumnShift, originalColumn } from '../script/await-edits';

/** Rewrites a stack line's file:line:column; set by threads whose script frames Node does not map (vu-host). */
let remap: ((line: string) => string) | undefined;

export function setFrameRemapper(fn: (line: string) => string): void {
  remap = fn;
}

/**
 * A remapper for frames of a bundle Node's own source-map support does not see (a vm.Script): frames in `file` are
 * rewritten through the bundle's inline source map to the original source, line and column. `shifts`: where the
 * bundle was rewritten after its map was made (runner/script/await-edits.ts).
 */
export function inlineSourceMapRemapper(
  file: string,
  code: string,
  shifts: readonly ColumnShift[] = [],
): (line: string) => string {
  const match = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/.exec(code);
  if (!match) return (line) => line;
  const map = new SourceMap(JSON.parse(Buffer.from(match[1], 'base64').toString('utf8')));
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const frame = new RegExp(`${escaped}:(\\d+):(\\d+)`);
  return (line) =>
    line.replace(frame, (whole, l: string, c: string) => {
      const row = Number(l) - 1;
      const entry = map.findEntry(row, originalColumn(shifts, row, Number(c) - 1)) as {
        originalSource?: string;
        originalLine?: number;
        originalColumn?: number;
      };
      if (entry.originalSource === undefined || entry.originalLine === undefined) return whole;
      const source = entry.originalSource.startsWith('file://')
        ? fileURLToPath(entry.originalSource)
        : resolve(dirname(file), entry.originalSource);
      return `${source}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
    });
}

/** The error's stack without the runner's own frames (k6 shows only the script's); anything else as a string. */
export function scriptStack(error: unknown): string {
  if (!isError(error)) return String(error);
  // Frames of hosted VUs whose blocking calls became awaits read `at async f` and `Object.f [as fn]`: the runner's
  // doing, so they are shown as the script's plain frames.
  const lines = (error.stack ?? String(error))
    .split('\n')
    .map((l) => (remap ? remap(l) : l).replace(/^(\s+at )async /, '$1').replace(' [as fn] (', ' ('));
  const runnerFrame = /\/dist\/[\w.-]+\.js:|\(node:|at node:|\[nodejs\.internal/;
  return lines.filter((l, i) => i === 0 || !runnerFrame.test(l)).join('\n');
}
