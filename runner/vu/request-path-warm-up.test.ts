import { describe, expect, it } from 'vitest';
import { INSTANCE_WORDS, newInt32Block, nowMs, SIGNAL_WORDS } from '../control-block';
import { defaultHttpOptions } from '../http/default-options';
import { LANE_REQUESTS, LANES, warmRequestPath } from './request-path-warm-up';
import type { RealmData } from './wire';

function vuData(overrides: Partial<RealmData['httpOptions']> = {}): RealmData {
  return {
    mode: 'vu',
    vuId: 7,
    bundleUrl: '',
    scriptDir: '',
    env: {},
    testOptions: {},
    runTags: { run: 'x' },
    systemTags: ['scenario', 'status', 'method', 'url', 'name', 'vu'],
    minIterationDuration: 0,
    signal: newInt32Block(SIGNAL_WORDS),
    instance: newInt32Block(INSTANCE_WORDS),
    testStart: nowMs(),
    sharedArrays: {},
    httpOptions: { ...defaultHttpOptions(), ...overrides },
  } as unknown as RealmData; // the fields a realm of a hosted VU reads; the rest are the main thread's
}

describe('request-path warm-up', () => {
  it("sends k6/http requests on a VU of its own, whose samples are encoded and dropped, and leaves the VU's signal alone", async () => {
    const like = vuData({ discardResponseBodies: true });
    const stats = await warmRequestPath(like);
    expect(stats.requests).toBeGreaterThan(0);
    expect(stats.requests).toBeLessThanOrEqual(LANES * LANE_REQUESTS);
    // Every request emitted its samples (http_reqs, http_req_duration, ...): they filled at least one batch.
    expect(stats.batches).toBeGreaterThan(0);
    expect(Array.from(like.signal)).toEqual(Array.from(newInt32Block(SIGNAL_WORDS)));
    // It closed its connections itself before it ended: nothing of it is left to run into the test's first starts.
    expect(stats.cut).toBe(0);
  });
});
