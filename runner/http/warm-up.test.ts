import { describe, expect, it } from 'vitest';
import { LANE_REQUESTS, LANES, RECONNECT_EVERY, warmUp } from './warm-up';

describe('HTTP warm-up', () => {
  it('sends its requests in lanes of their own connections, reconnecting every few requests', async () => {
    const { requests, connections, cut } = await warmUp();
    expect(requests).toBeGreaterThan(0);
    // Every lane closed its connections itself before the warm-up ended.
    expect(cut).toBe(0);
    // A lane that ran to the end opened LANE_REQUESTS / RECONNECT_EVERY connections (4); one cut by the time budget
    // opened fewer, never fewer than one per lane that sent anything.
    if (requests === LANES * LANE_REQUESTS)
      expect(connections).toBe(LANES * (LANE_REQUESTS / RECONNECT_EVERY));
    else expect(connections).toBeGreaterThanOrEqual(Math.min(requests, LANES));
  });
});
