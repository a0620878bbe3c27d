// The README's knob table of experiment 2 is the script's own table (what `-e HELP=1` prints), so the manual never
// drifts from the code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FILTER_COST_KNOBS } from '../../lib/filter-cost/config';
import { knobMarkdown } from '../../lib/knobs';
import { root } from '../experiment-script';

describe('README, experiment 2', () => {
  it('carries the knob table exactly as the code defines it', () => {
    expect(readFileSync(`${root}/README.md`, 'utf8')).toContain(knobMarkdown(FILTER_COST_KNOBS));
  });
});
