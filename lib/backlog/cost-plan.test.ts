import { describe, expect, it } from 'vitest';
import { readBacklogConfig } from './config';
import { assertCostAccepted, formatPlan, planCost } from './cost-plan';

const REAL = {
  TURBOPUFFER_API_KEY: 'tpuf_abcdefghijklmnopqrstuvwxyz012345',
  TURBOPUFFER_REGION: 'gcp-us-central1',
};

describe('cost guard', () => {
  const config = readBacklogConfig(REAL);
  const plan = planCost(config, 600_500);

  it('bounds rows, bytes, queries and time from the knobs', () => {
    expect(plan).toEqual({
      seedRows: 100000,
      maxRows: 1500000,
      maxBytes: 1500000 * 3080,
      maxQueries: 60100,
      maxMetadataReads: (4 + 100) * 601,
      durationS: 601,
    });
    expect(formatPlan(config, plan)).toBe(
      'plan for https://gcp-us-central1.turbopuffer.com: seed 100000 rows, write at most 1500000 rows ' +
        '(4.3 GiB of 768-d f32 vectors), start at most 60100 queries and 62504 metadata reads over at most ' +
        '601 s (plus setup), ' +
        'one namespace, deleted at the end (CLEANUP=1)',
    );
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
    expect(() => assertCostAccepted({}, local, planCost(local, 1000))).not.toThrow();
  });
});
