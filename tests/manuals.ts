// Reading the experiments' manuals (docs/experiments/<name>.md) for the tests that hold them equal to the code: a
// numbered section, and the knob table in it as rows of cells (compared with what `-e HELP=1` prints).
import { readFileSync } from 'node:fs';
import { root } from './experiment-script';

/** The rows of every Markdown table whose first cell is a backticked knob name, cells trimmed. */
export function knobRows(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((line) => /^\| `[A-Z_]+` /.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

/** The text of `## <number>. <title>` in an experiment's manual, up to the next `## ` heading. */
export function manualSection(experiment: string, heading: string): string {
  const manual = readFileSync(`${root}/docs/experiments/${experiment}.md`, 'utf8');
  const start = manual.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`docs/experiments/${experiment}.md has no "## ${heading}" section`);
  const end = manual.indexOf('\n## ', start + 1);
  return manual.slice(start, end < 0 ? undefined : end);
}
