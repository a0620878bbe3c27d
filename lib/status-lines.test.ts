import { describe, expect, it } from 'vitest';
import { StatusLines } from './status-lines';

describe('StatusLines', () => {
  it('prints on every new event and otherwise once per interval, each line prefixed', () => {
    const printed: string[] = [];
    const lines = new StatusLines((l) => printed.push(l), 10_000);
    for (let t = 0; t <= 25_000; t += 1_000) lines.offer(t, t < 12_000 ? 'a' : 'b', () => `at ${t / 1000}`);
    expect(printed).toEqual(['progress: at 0', 'progress: at 10', 'progress: at 12', 'progress: at 22']);
  });
});
