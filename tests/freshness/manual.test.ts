// The knob table of experiment 3's manual (docs/experiments/freshness.md §4) is the script's own table (what
// `-e HELP=1` prints), so the manual never drifts from the code.
import { describe, expect, it } from 'vitest';
import { FRESHNESS_KNOBS } from '../../lib/freshness/config';
import { knobMarkdown } from '../../lib/knobs';
import { knobRows, manualSection } from '../manuals';

describe('docs/experiments/freshness.md', () => {
  it('carries the knob table exactly as the code defines it', () => {
    const rows = knobRows(manualSection('freshness', '4. Knobs'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(knobRows(knobMarkdown(FRESHNESS_KNOBS)));
  });
});
