import { describe, expect, it } from 'vitest';
import { isRetryable, retryDelayMs } from './write-retry';

describe('write retry policy', () => {
  it.each([
    [0, true],
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [404, false],
    [200, false],
  ])('status %i is retryable: %s', (status, expected) => {
    expect(isRetryable(status)).toBe(expected);
  });

  it("doubles from 500 ms, follows the server's retry-after-ms and never waits more than 8 s", () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs({}, attempt))).toEqual([
      500, 1000, 2000, 4000, 8000,
    ]);
    expect(retryDelayMs({}, 9)).toBe(8000);
    expect(retryDelayMs({ retryAfterMs: 1200 }, 6)).toBe(1200);
    expect(retryDelayMs({ retryAfterMs: 60_000 }, 1)).toBe(8000);
  });
});
