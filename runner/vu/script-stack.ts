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
      // A file: URL is a path; another scheme (a remote module's https:, a bundler's webpack:) is shown as it is.
      const source = entry.originalSource.startsWith('file://')
        ? fileURLToPath(entry.originalSource)
        : /^[a-z][a-z0-9+.-]*:/i.test(entry.originalSource)
          ? entry.originalSource.replace(/^bench-remote:/, '')
          : resolve(dirname(file), entry.originalSource);
      return `${source}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
    });
}

/** Where non-Error values were thrown (runner/script/thrown-values.ts): objects by identity. */
const thrownObjects = new WeakMap<object, string>();
/** Primitives by value, the latest few (a value is looked up right after its throw ends an iteration or init). */
const thrownPrimitives: Array<[unknown, string]> = [];
const PRIMITIVES_KEPT = 16;

/**
 * The realm global that marked `throw` statements call: notes the throw's frames for a value that is not an Error and
 * returns the value unchanged.
 */
export function noteThrown(value: unknown): unknown {
  if (isError(value)) return value;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, noteThrown);
  const frames = (holder.stack ?? '').split('\n').slice(1).join('\n');
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    thrownObjects.set(value, frames);
  } else {
    thrownPrimitives.push([value, frames]);
    if (thrownPrimitives.length > PRIMITIVES_KEPT) thrownPrimitives.shift();
  }
  return value;
}

function thrownFrames(value: unknown): string | undefined {
  if ((typeof value === 'object' && value !== null) || typeof value === 'function')
    return thrownObjects.get(value);
  for (let i = thrownPrimitives.length - 1; i >= 0; i--)
    if (Object.is(thrownPrimitives[i][0], value)) return thrownPrimitives[i][1];
  return undefined;
}

/**
 * The error's stack without the runner's own frames (k6 shows only the script's); any other thrown value as a string
 * followed by the frames of its throw, as k6 logs it.
 */
export function scriptStack(error: unknown): string {
  let stack: string;
  if (isError(error)) {
    stack = error.stack ?? String(error);
  } else {
    const frames = thrownFrames(error);
    if (frames === undefined) return String(error);
    stack = `${String(error)}\n${frames}`;
  }
  // Frames of hosted VUs whose blocking calls became awaits read `at async f` and `Object.f [as fn]`: the runner's
  // doing, so they are shown as the script's plain frames.
  const lines = stack.split('\n').map((l) =>
    (remap ? remap(l) : l)
      .replace(/^(\s+at )async /, '$1')
      .replace(' [as fn] (', ' (')
      // Remote modules' frames read as their URL, as in k6 (the bundle names them by a namespace of its own).
      .replace(/\bbench-remote:/g, ''),
  );
  const runnerFrame = /\/dist\/[\w.-]+\.js:|\(node:|at node:|\[nodejs\.internal/;
  return lines.filter((l, i) => i === 0 || !runnerFrame.test(l)).join('\n');
}
