import { describe, expect, it } from 'vitest';
import { planCells } from './cells';
import { readFilterCostConfig } from './config';
import { formatFilterCostPlan, logicalRowBytes, planFilterCost } from './cost-plan';

describe('planFilterCost', () => {
  it('bounds rows, bytes, queries, probes and metadata reads of one configuration', () => {
    const c = readFilterCostConfig({
      ROWS: '1000000',
      ATTRIBUTE: 'string',
      CARDINALITY: '100',
      QUERY_RATE: '10',
      QUERY_DURATION_S: '30',
      QUERY_WARMUP_S: '5',
      JIT_WARMUP_S: '5',
      SETUP_TIMEOUT_S: '3600',
      TURBOPUFFER_API_KEY: 'k',
      TURBOPUFFER_REGION: 'gcp-us-central1',
    });
    const { cells } = planCells(c);
    expect(cells).toHaveLength(7);
    expect(logicalRowBytes(c)).toBe(8 + 768 * 4 + 8);
    const plan = planFilterCost(c, cells);
    expect(plan).toMatchObject({
      rows: 1_000_000,
      bytes: 3_088_000_000,
      writeRequests: 1000,
      queries: 50 + 7 * 350,
      recallQueries: 2 * 10 * 6,
      metadataReads: 3602,
    });
    expect(plan.billableQueriedBytes).toBe((2500 + 120 + 3602) * 3_088_000_000);
    expect(formatFilterCostPlan(c, plan)).toContain(
      'plan for https://gcp-us-central1.turbopuffer.com, configuration string-100: write 1000000 rows',
    );
  });

  it('counts no attribute bytes for the baseline', () => {
    expect(logicalRowBytes(readFilterCostConfig({ ATTRIBUTE: 'none', DIMS: '4' }))).toBe(24);
  });
});
