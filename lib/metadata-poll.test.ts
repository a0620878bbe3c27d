import { describe, expect, it } from 'vitest';
import { MetadataPoller, readingFrom } from './metadata-poll';
import type { NamespaceMetadata } from './turbopuffer-wire';

describe('readingFrom', () => {
  it('reads unindexed_bytes and unindexed_rows while updating and 0 once up to date', () => {
    expect(
      readingFrom(
        {
          approx_row_count: 5,
          approx_logical_bytes: 680,
          index: { status: 'updating', unindexed_bytes: 123, unindexed_rows: 2 },
        },
        9,
      ),
    ).toEqual({
      time: 9,
      unindexedBytes: 123,
      unindexedRows: 2,
      approxRowCount: 5,
      approxLogicalBytes: 680,
      indexStatus: 'updating',
    });
    expect(readingFrom({ index: { status: 'up-to-date' } }, 9)).toMatchObject({
      unindexedBytes: 0,
      unindexedRows: 0,
      approxRowCount: null,
      approxLogicalBytes: null,
    });
    // The real service may leave unindexed_rows out: unknown, not 0.
    expect(readingFrom({ index: { status: 'updating', unindexed_bytes: 1 } }, 9).unindexedRows).toBeNull();
  });
});

describe('MetadataPoller', () => {
  function setup(responses: { status: number; body?: NamespaceMetadata }[]) {
    let now = 10_000;
    let calls = 0;
    const poller = new MetadataPoller(
      () => responses[Math.min(calls++, responses.length - 1)],
      1000,
      () => now,
    );
    return { poller, advance: (ms: number) => (now += ms), calls: () => calls };
  }
  const updating = (bytes: number) => ({
    status: 200,
    body: { index: { status: 'updating' as const, unindexed_bytes: bytes } },
  });

  it('fetches at most once per wall-clock second', () => {
    const s = setup([updating(1), updating(2)]);
    expect(s.poller.current()).toMatchObject({ fresh: true, reading: { unindexedBytes: 1 } });
    s.advance(999);
    expect(s.poller.current()).toMatchObject({ fresh: false, reading: { unindexedBytes: 1 } });
    expect(s.calls()).toBe(1);
    s.advance(1);
    expect(s.poller.current()).toMatchObject({ fresh: true, reading: { unindexedBytes: 2 } });
    expect(s.calls()).toBe(2);
  });

  it('keeps the last good reading when a fetch fails, and counts the failure', () => {
    const s = setup([updating(7), { status: 503 }]);
    s.poller.current();
    s.advance(1000);
    expect(s.poller.current()).toMatchObject({ fresh: false, reading: { unindexedBytes: 7 } });
    expect(s.poller.failures).toBe(1);
  });
});
