// The README's knob table of experiment 2 is the script's own table (what `-e HELP=1` prints), so the manual never
// drifts from the code. Compared cell by cell: the Markdown formatter pads the README's columns.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FILTER_COST_KNOBS } from '../../lib/filter-cost/config';
import { knobMarkdown } from '../../lib/knobs';
import { root } from '../experiment-script';

/** The rows of every Markdown table whose first cell is a backticked knob name, cells trimmed. */
function knobRows(markdown: string): string[][] {
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

describe('README, experiment 2', () => {
  it('carries the knob table exactly as the code defines it', () => {
    const readme = readFileSync(`${root}/README.md`, 'utf8');
    const section = readme.slice(readme.indexOf('## Experiment 2'), readme.indexOf('## Development'));
    expect(knobRows(section)).toEqual(knobRows(knobMarkdown(FILTER_COST_KNOBS)));
  });
});
