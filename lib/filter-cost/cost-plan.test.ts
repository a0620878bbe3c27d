import { describe, expect, it } from 'vitest';
import { planStudy } from './cells';
import { readFilterCostConfig } from './config';
import { parseConfigurations } from './configurations';
import { formatFilterCostPlan, logicalRowBytes, planFilterCost } from './cost-plan';

const SERVICE = { TURBOPUFFER_API_KEY: 'k', TURBOPUFFER_REGION: 'gcp-us-central1' };

describe('planFilterCost', () => {
  it('bounds rows, bytes, queries, probes and metadata reads of the whole study', () => {
    const c = readFilterCostConfig({
      ...SERVICE,
      CONFIGURATIONS: 'baseline-head,int-100,string-100',
      QUERY_RATE: '10',
      QUERY_DURATION_S: '10',
      QUERY_WARMUP_S: '2',
      CELL_GAP_S: '1',
      JIT_WARMUP_S: '5',
      SETUP_TIMEOUT_S: '3600',
    });
    const plan = planStudy(c);
    expect(plan.cells).toHaveLength(7);
    const p = planFilterCost(c, plan);
    expect(p).toMatchObject({
      namespaces: 3,
      rows: 3_000_000,
      bytes: 1_000_000 * (3080 + 3088 + 3088),
      writeRequests: 3000,
      // 5 s of JIT warm-up plus 14 windows of 12 s, at 10/s.
      queries: 50 + 14 * 120,
      // 10 probes x 3 queries for each of the 5 ANN cells, plus one count per filter.
      probeQueries: 150 + 2,
      metadataReads: 3600 + 6,
      durationS: { setup: 3600, scenarios: 6 + 14 * 13, teardown: 300, total: 3600 + 6 + 14 * 13 + 300 },
    });
    // Each window against its own namespace: ann_only on the baseline (3.08 GB), the rest on the 3.088 GB ones.
    const q = p.usage.queries;
    expect(q[0]).toEqual({ count: 50, namespaceBytes: 3_080_000_000, returnedBytes: 160 });
    expect(q.slice(1, 3).map((x) => x.namespaceBytes)).toEqual([3_080_000_000, 3_080_000_000]);
    expect(q.slice(3, 15).every((x) => x.namespaceBytes === 3_088_000_000 && x.count === 120)).toBe(true);
    // Writes: 1,000 requests of 1,000 rows per namespace plus the 10,000-row warm-up (string values).
    expect(p.usage.writes).toEqual([
      { requests: 1000, bytesPerRequest: 3_080_000 },
      { requests: 1000, bytesPerRequest: 3_088_000 },
      { requests: 1000, bytesPerRequest: 3_088_000 },
      { requests: 10, bytesPerRequest: 3_088_000 },
    ]);
    // (9.256 + 0.03088) GB x $2.
    expect(p.cost?.writesUsd).toBeCloseTo(18.57376, 8);
    expect(formatFilterCostPlan(c, p)).toBe(
      'plan for https://gcp-us-central1.turbopuffer.com: 3 namespaces in sequence, write 3000000 rows ' +
        '(8.62 GiB logical, 3000 requests), start at most 1730 queries, 152 probe and count queries and 3606 ' +
        'metadata reads, every namespace deleted at the end (CLEANUP=1); at most 1 h 08 min (setup 1 h 00 min at ' +
        'most, query windows 3 min 08 s, teardown 5 min 00 s at most). Estimated bill at most $18.60 (writes ' +
        '$18.57, queries $0.01, metadata reads $0.01, storage <$0.01), $9.31 if every write gets the full 50 % ' +
        "batch discount. An estimate from turbopuffer's published Launch/Scale prices read on 2026-12-01 " +
        "(https://turbopuffer.com/pricing; lib/turbopuffer-prices.ts), before your plan's monthly minimum",
    );
  });

  it('counts no attribute bytes for the baseline and 8 for an int or an 8-character string', () => {
    const [base, int, str] = parseConfigurations('baseline,int-100,string-unique', 1000);
    const c = { dims: 4, rows: 1000 };
    expect([logicalRowBytes(c, base), logicalRowBytes(c, int), logicalRowBytes(c, str)]).toEqual([
      24, 32, 32,
    ]);
  });
});
