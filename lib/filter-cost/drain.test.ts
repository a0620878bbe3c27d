import { describe, expect, it } from 'vitest';
import { drainFigures, type Poll } from './drain';

const MiB = 2 ** 20;

describe('drainFigures', () => {
  it('takes the peak over every poll, ingest and drain, and the drain from the last ack to the first indexed poll', () => {
    const polls: Poll[] = [
      [0, 0, 1],
      [1000, 40 * MiB, 0],
      [2000, 386 * MiB, 0],
      // Batchy: the backlog falls, rises again and peaks after the last write.
      [3000, 120 * MiB, 0],
      [4000, 400 * MiB, 0],
      [5000, 900 * MiB, 0],
      [6000, 0, 0],
      [7000, 0, 1],
    ];
    expect(drainFigures(polls, 4500)).toEqual({ peak_unindexed_bytes: 900 * MiB, duration_s: 2.5 });
  });

  it('ignores an indexed poll from before the last write (the empty namespace at the start)', () => {
    expect(
      drainFigures(
        [
          [0, 0, 1],
          [500, 10, 0],
        ],
        400,
      ),
    ).toEqual({ peak_unindexed_bytes: 10, duration_s: null });
  });

  it('counts a poll at the very instant of the last ack, and has no figures without polls', () => {
    expect(drainFigures([[100, 5, 1]], 100)).toEqual({ peak_unindexed_bytes: 5, duration_s: 0 });
    expect(drainFigures([], 0)).toEqual({ peak_unindexed_bytes: null, duration_s: null });
  });
});
