// What `make try-tpuf-benchmark` prints: per definition the tool's exit code, the queries it sent, the requests that
// failed, and the time taken; then the totals. Read from the tool's own records (tpuf-benchmark's pkg/bench): each
// answered query is a row of queries.csv in --output-dir, and each failed request a log line
// "HH:MM:SS [stage] error: error querying namespace ..." (or "error upserting documents ..."), after which that worker
// stops. Pure, so the counting and the table are tested without the tool.

/** One definition's run: `exitCode` null when the time limit killed it; `queriesCsv` absent when none was written. */
export interface DefinitionRun {
  definition: string;
  exitCode: number | null;
  seconds: number;
  output: string;
  queriesCsv: string | undefined;
}

export interface RunCounts {
  answered: number;
  queryErrors: number;
  requestErrors: number;
}

const LOGGED_ERROR = /^\d\d:\d\d:\d\d \[[^\]]*\] error: (.*)$/;

/** The tool's logged errors, in order. */
export function loggedErrors(output: string): string[] {
  return output.split('\n').flatMap((line) => {
    const match = LOGGED_ERROR.exec(line.trimEnd());
    return match ? [match[1]] : [];
  });
}

/** Data rows of queries.csv (its first line is the header). */
export function csvRows(csv: string | undefined): number {
  if (csv === undefined) return 0;
  return csv.split('\n').filter((line) => line.trim() !== '').length - 1;
}

export function counts(run: DefinitionRun): RunCounts {
  const errors = loggedErrors(run.output);
  return {
    answered: Math.max(0, csvRows(run.queriesCsv)),
    queryErrors: errors.filter((e) => e.startsWith('error querying namespace')).length,
    requestErrors: errors.filter((e) => /^error (querying|upserting)/.test(e)).length,
  };
}

/** Why a run failed, in one line: the tool's last "Error: ..." (cobra's), else its first logged error. */
export function failure(run: DefinitionRun): string {
  if (run.exitCode === null) return 'killed at the time limit';
  const fatal = run.output
    .split('\n')
    .filter((line) => line.startsWith('Error: '))
    .pop();
  const reason = fatal ?? loggedErrors(run.output)[0] ?? '';
  return reason.length > 160 ? `${reason.slice(0, 157)}...` : reason;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

export function renderReport(runs: readonly DefinitionRun[], command: string): string {
  const lines = [
    `# tpuf-benchmark definitions against the emulator`,
    '',
    `\`${command}\``,
    '',
    '| definition | exit code | queries sent | request errors | seconds | first error |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
  ];
  let sent = 0;
  let errors = 0;
  let seconds = 0;
  let ok = 0;
  for (const run of runs) {
    const c = counts(run);
    sent += c.answered + c.queryErrors;
    errors += c.requestErrors;
    seconds += run.seconds;
    if (run.exitCode === 0) ok++;
    const exit = run.exitCode === null ? 'killed' : String(run.exitCode);
    const note = run.exitCode === 0 && c.requestErrors === 0 ? '' : cell(failure(run));
    lines.push(
      `| ${cell(run.definition)} | ${exit} | ${c.answered + c.queryErrors} | ${c.requestErrors} | ${run.seconds.toFixed(0)} | ${note} |`,
    );
  }
  lines.push(
    `| **total: ${ok} of ${runs.length} exited 0** | | **${sent}** | **${errors}** | **${seconds.toFixed(0)}** | |`,
    '',
  );
  return `${lines.join('\n')}\n`;
}
