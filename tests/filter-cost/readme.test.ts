// The knob table of experiment 2's manual (docs/experiments/filter-cost.md §4) is the script's own table (what
// `-e HELP=1` prints), so the manual never drifts from the code. Compared cell by cell: the manual's columns are padded.
import { describe, expect, it } from 'vitest';
import { FILTER_COST_KNOBS } from '../../lib/filter-cost/config';
import { knobMarkdown } from '../../lib/knobs';
import { knobRows, manualSection } from '../manuals';

describe('docs/experiments/filter-cost.md', () => {
  it('carries the knob table exactly as the code defines it', () => {
    const rows = knobRows(manualSection('filter-cost', '4. Knobs'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(knobRows(knobMarkdown(FILTER_COST_KNOBS)));
  });
});
