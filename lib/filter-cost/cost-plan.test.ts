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
      durationS: 3600 + 6 + 14 * 13,
    });
    expect(p.billableQueriedBytes).toBe((1730 + 152 + 3606) * 3_088_000_000);
    expect(formatFilterCostPlan(c, p)).toBe(
      'plan for https://gcp-us-central1.turbopuffer.com: 3 namespaces in sequence, write 3000000 rows ' +
        '(8.62 GiB logical, 3000 requests), start at most 1730 queries, 152 probe and count queries and 3606 ' +
        'metadata reads (about 15.41 TiB billable bytes queried) over at most 3788 s, every namespace deleted at ' +
        'the end (CLEANUP=1)',
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
