import { describe, expect, it } from 'vitest';
import { readBacklogConfig } from './config';
import { assertCostAccepted, formatPlan, planCost } from './cost-plan';

const REAL = {
  TURBOPUFFER_API_KEY: 'tpuf_abcdefghijklmnopqrstuvwxyz012345',
  TURBOPUFFER_REGION: 'gcp-us-central1',
};

describe('cost guard', () => {
  const config = readBacklogConfig({ ...REAL, PHASE_TIMEOUT_S: '100', QUERY_DURATION_S: '50' });
  const plan = planCost(config);

  it('bounds rows, bytes, requests and the run length from the knobs', () => {
    // Scenarios: 6 cells of 60 s + 2 gate waits of 100 s + 2 holds of 2 s + 6 s = 570 s, plus the queries' 10 s graceful stop.
    expect(plan).toMatchObject({
      seedRows: 100000,
      maxRows: 1500000,
      maxBytes: 1500000 * 3080,
      seedRequests: 100,
      writerRequests: 700,
      maxQueries: 100 * 570,
      // setup: 1 + 1800; writers: 4 x 570; 100 query VUs x 2 waits of (100 + 3) s.
      maxMetadataReads: 1 + 1800 + 4 * 570 + 100 * 206,
      durationS: { setup: 1800, scenarios: 580, teardown: 120, total: 2500 },
    });
  });

  it('prices that plan at the published rates: writes, queries and metadata reads on the largest namespace, storage', () => {
    const bytes = 1500000 * 3080;
    expect(plan.usage).toEqual({
      writes: [
        { requests: 100, bytesPerRequest: 1000 * 3080 },
        { requests: 700, bytesPerRequest: 2000 * 3080 },
      ],
      queries: [{ count: 57000, namespaceBytes: bytes, returnedBytes: 160 }],
      metadataReads: [{ count: 24681, namespaceBytes: bytes, returnedBytes: 0 }],
      storage: { bytes, unindexedBytes: 0, hours: 2500 / 3600 },
    });
    // 4.62 GB x $2; 57,000 x 4.62 GB at $1/PB; 24,681 x 4.62 GB; 4.62 GB-months x 2500/3600/730.
    expect(plan.cost?.writesUsd).toBeCloseTo(9.24, 10);
    expect(plan.cost?.queriesUsd).toBeCloseTo(57000 * (4.62e9 / 1e15 + (160 / 1e9) * 0.05), 10);
    expect(plan.cost?.metadataReadsUsd).toBeCloseTo((24681 * 4.62e9) / 1e15, 10);
    expect(plan.cost?.storageUsd).toBeCloseTo((4.62 * 0.33 * 2500) / 3600 / 730, 10);
    expect(formatPlan(config, plan)).toBe(
      'plan for https://gcp-us-central1.turbopuffer.com: seed 100000 rows, write at most 1500000 rows in all ' +
        '(4.3 GiB of 768-d f32 vectors, 800 requests), start at most 57000 queries and 24681 metadata reads, one ' +
        'namespace deleted at the end (CLEANUP=1); at most 41 min 40 s (setup 30 min 00 s at most, scenarios 9 min ' +
        '40 s, teardown 2 min 00 s at most). Estimated bill at most $9.62 (writes $9.24, queries $0.26, metadata ' +
        'reads $0.11, storage <$0.01), $5.00 if every write gets the full 50 % batch discount. An estimate from ' +
        "turbopuffer's published Launch/Scale prices read on 2026-12-01 (https://turbopuffer.com/pricing; " +
        "lib/turbopuffer-prices.ts), before your plan's monthly minimum",
    );
  });

  it('prints no bill for the emulator', () => {
    const local = readBacklogConfig({});
    const p = planCost(local);
    expect(p.cost).toBeNull();
    expect(formatPlan(local, p)).toMatch(/\. The local emulator: no bill$/);
  });

  it('refuses the real service without TPUF_BENCH_CONFIRM_COST=1, printing the plan but not the key', () => {
    let message = '';
    try {
      assertCostAccepted(REAL, config, plan);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^TPUF_BENCH_CONFIRM_COST: the target is the real turbopuffer service/);
    expect(message).toContain('write at most 1500000 rows');
    expect(message).not.toContain(REAL.TURBOPUFFER_API_KEY);
    expect(() => assertCostAccepted({ ...REAL, TPUF_BENCH_CONFIRM_COST: '1' }, config, plan)).not.toThrow();
  });

  it('lets the emulator through without confirmation', () => {
    const local = readBacklogConfig({});
    expect(() => assertCostAccepted({}, local, planCost(local))).not.toThrow();
  });
});
