import { describe, expect, it } from 'vitest';
import type { Gates, Slot } from './phases';
import { type BacklogProgress, backlogProgressLine, progressEvent } from './progress';

const MiB = 2 ** 20;
const gates: Gates = { ltStartBytes: 1 * MiB, ltCapBytes: 4 * MiB, gtStartBytes: 8 * MiB };
const now = 1_000_000;

function line(slot: Slot, extra: Partial<BacklogProgress> = {}): string {
  return backlogProgressLine({
    slot,
    now,
    unindexedBytes: 2.34 * MiB,
    gates,
    waitDeadline: null,
    scenariosEnd: now + 57_000,
    rowsWritten: 1275,
    writeErrors: 0,
    ...extra,
  });
}

describe('backlogProgressLine', () => {
  it('names the cell, its stage, the time left in it, the backlog against the gate and the time left in the run', () => {
    const window = { start: now - 1_000, end: now + 5_000 };
    expect(line({ phase: 'indexing_below_limit', stage: 'measuring', consistency: 'strong', window })).toBe(
      'indexing_below_limit/strong: measuring, 5 s left in the cell; backlog 2.34 MiB (gate 1 MiB to 4 MiB); ' +
        '1275 rows written; the scenarios end in 57 s',
    );
    const ahead = { start: now + 1_000, end: now + 6_000 };
    expect(line({ phase: 'idle', stage: 'warmup', consistency: 'eventual', window: ahead })).toBe(
      'idle/eventual: warm-up, measuring in 1 s, 6 s left in the cell; backlog 2.34 MiB (no gate); ' +
        '1275 rows written; the scenarios end in 57 s',
    );
  });

  it('after the last window of a gated phase, says the phase is held rather than warming up for nothing', () => {
    const past = { start: now - 6_000, end: now - 1_000 };
    expect(
      line({ phase: 'indexing_below_limit', stage: 'warmup', consistency: 'eventual', window: past }),
    ).toBe(
      'indexing_below_limit/eventual: measured, the phase held before the next one; backlog 2.34 MiB ' +
        '(gate 1 MiB to 4 MiB); 1275 rows written; the scenarios end in 57 s',
    );
  });

  it('says the strong cell above the limit expects its 429s, and counts write errors when there are some', () => {
    const window = { start: now - 1_000, end: now + 5_000 };
    expect(
      line(
        { phase: 'indexing_above_limit', stage: 'measuring', consistency: 'strong', window },
        { unindexedBytes: 8.8 * MiB, writeErrors: 2 },
      ),
    ).toBe(
      'indexing_above_limit/strong: measuring, 5 s left in the cell, 429s expected (backpressure); ' +
        'backlog 8.8 MiB (gate >= 8 MiB); 1275 rows written, 2 write errors; the scenarios end in 57 s',
    );
  });

  it('while a gate is awaited: the gate, the backlog and when the wait is given up', () => {
    const slot: Slot = { phase: 'indexing_above_limit', stage: 'waiting', consistency: null, window: null };
    expect(line(slot, { waitDeadline: now + 15_000 })).toBe(
      'indexing_above_limit: waiting for the gate >= 8 MiB: backlog 2.34 MiB, given up in 15 s; 1275 rows written; ' +
        'the scenarios end in 57 s',
    );
    expect(
      line(
        { phase: 'idle', stage: 'waiting', consistency: null, window: null },
        { unindexedBytes: undefined },
      ),
    ).toBe('idle: starting; backlog not read yet; the scenarios end in 57 s');
    expect(line({ phase: null, stage: 'done', consistency: null, window: null })).toBe(
      'every cell done; 1275 rows written; the scenarios end in 57 s (the scenarios last their bound)',
    );
  });

  it('prints a new line when the phase, stage or consistency changes', () => {
    const w = { start: 0, end: 1 };
    expect(progressEvent({ phase: 'idle', stage: 'warmup', consistency: 'strong', window: w })).not.toBe(
      progressEvent({ phase: 'idle', stage: 'measuring', consistency: 'strong', window: w }),
    );
    expect(progressEvent({ phase: 'idle', stage: 'measuring', consistency: 'strong', window: w })).toBe(
      progressEvent({
        phase: 'idle',
        stage: 'measuring',
        consistency: 'strong',
        window: { start: 5, end: 6 },
      }),
    );
  });
});
