// What `make try-k6-scripts` prints: each script's exit code with k6's name for it and the first error it logged,
// then the count per exit code. Pure, so the table's shape is tested without running anything.
import { stripVTControlCharacters } from 'node:util';
import {
  EXIT_EXTERNAL_ABORT,
  EXIT_GENERIC_ERROR,
  EXIT_GENERIC_TIMEOUT,
  EXIT_INTERNAL_ERROR,
  EXIT_INVALID_CONFIG,
  EXIT_MARKED_AS_FAILED,
  EXIT_OK,
  EXIT_SCRIPT_ABORTED,
  EXIT_SCRIPT_EXCEPTION,
  EXIT_SETUP_TIMEOUT,
  EXIT_TEARDOWN_TIMEOUT,
  EXIT_THRESHOLDS_FAILED,
} from '../core/exit-codes';

/** One script's run: `exitCode` null when the time limit killed it. */
export interface ScriptRun {
  script: string;
  exitCode: number | null;
  seconds: number;
  output: string;
}

const EXIT_NAMES: ReadonlyMap<number, string> = new Map([
  [EXIT_OK, 'ok'],
  [EXIT_THRESHOLDS_FAILED, 'thresholds failed'],
  [EXIT_SETUP_TIMEOUT, 'setup timeout'],
  [EXIT_TEARDOWN_TIMEOUT, 'teardown timeout'],
  [EXIT_GENERIC_TIMEOUT, 'timeout'],
  [EXIT_INVALID_CONFIG, 'invalid config'],
  [EXIT_EXTERNAL_ABORT, 'external abort'],
  [EXIT_SCRIPT_EXCEPTION, 'script exception'],
  [EXIT_SCRIPT_ABORTED, 'script aborted'],
  [EXIT_INTERNAL_ERROR, 'internal error'],
  [EXIT_MARKED_AS_FAILED, 'marked as failed'],
  [EXIT_GENERIC_ERROR, 'generic error'],
]);

export function exitName(exitCode: number | null): string {
  if (exitCode === null) return 'killed at the time limit';
  return EXIT_NAMES.get(exitCode) ?? 'not a k6 exit code';
}

// ANSI colours (raw, or escaped as \u001b inside a logfmt msg) make the error cell unreadable in a table.
const stripAnsi = (text: string): string => stripVTControlCharacters(text).replace(/\\u001b\[[0-9;]*m/g, '');

/** The first line that reads as an error (k6's level=error lines, or the runner's own "bench:" refusals). */
export function firstError(output: string): string {
  for (const raw of stripAnsi(output).split('\n')) {
    const line = raw.trim();
    const logfmt = /level=error msg="((?:[^"\\]|\\.)*)"/.exec(line);
    if (logfmt) return logfmt[1].split('\\n')[0];
    if (/^bench: |^ERRO|not supported|Error:/.test(line)) return line;
  }
  return '';
}

/** Whether the run logged that something it used is not supported (the compatibility table must not say it is). */
export const saysNotSupported = (output: string): boolean => /not supported/i.test(output);

const cell = (text: string, width = 160): string => {
  const flat = text.replace(/\|/g, '\\|');
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
};

/** The Markdown the script prints: the count per exit code, then one row per script in the order given. */
export function renderReport(runs: readonly ScriptRun[], command: string): string {
  const counts = new Map<string, number>();
  for (const run of runs) {
    const key = run.exitCode === null ? 'killed' : String(run.exitCode);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const order = [...counts.keys()].sort((a, b) =>
    a === 'killed' ? 1 : b === 'killed' ? -1 : Number(a) - Number(b),
  );
  const notSupported = runs.filter((run) => saysNotSupported(run.output)).length;
  const lines = [
    `${runs.length} scripts, run by \`${command}\``,
    '',
    '| exit code | meaning | scripts |',
    '| --- | --- | ---: |',
    ...order.map((key) => {
      const code = key === 'killed' ? null : Number(key);
      return `| ${key} | ${exitName(code)} | ${counts.get(key)} |`;
    }),
    '',
    `Scripts whose output says "not supported": ${notSupported}`,
    '',
    '| script | exit code | seconds | first error |',
    '| --- | ---: | ---: | --- |',
    ...runs.map(
      (run) =>
        `| ${cell(run.script, 60)} | ${run.exitCode ?? 'killed'} | ${run.seconds.toFixed(1)} | ${cell(firstError(run.output))} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
