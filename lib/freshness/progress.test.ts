import { describe, expect, it } from 'vitest';
import { bandGates } from './bands';
import { freshnessProgressLine } from './progress';

const KiB = 1024;
const gates = bandGates({ tailLimitBytes: 64 * KiB, backlogLimitBytes: 256 * KiB });
const base = { now: 10_000, unindexedBytes: 150 * KiB, gates, waitDeadline: null, rowsWritten: 1200 };

describe('freshnessProgressLine', () => {
  it.each([
    [
      { phase: 2, stage: 'measuring', cell: 0, window: { start: 5000, end: 14_000 } },
      'above_tail: measuring, 4 s left; backlog 150 KiB (gate 128 KiB to 192 KiB); 1200 rows written',
    ],
    [
      { phase: 3, stage: 'waiting', cell: null, window: null },
      'above_limit: waiting for the gate >= 268.8 KiB: backlog 150 KiB; 1200 rows written',
    ],
    [
      { phase: null, stage: 'done', cell: null, window: null },
      'every band done; 1200 rows written; the writers stop, and the last probes are read until seen',
    ],
  ] as const)('%j', (slot, line) => {
    expect(freshnessProgressLine({ ...base, slot })).toBe(line);
  });
});
