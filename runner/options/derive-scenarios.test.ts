import { describe, expect, it } from 'vitest';
import { deriveScenarios } from './derive-scenarios';

describe('deriveScenarios', () => {
  it('turns iterations into shared-iterations with maxDuration from duration', () => {
    expect(deriveScenarios({ vus: 2, iterations: 10, duration: '30s' }).scenarios).toEqual({
      default: { executor: 'shared-iterations', vus: 2, iterations: 10, maxDuration: '30s' },
    });
    expect(deriveScenarios({ iterations: 3 }).scenarios).toEqual({
      default: { executor: 'shared-iterations', vus: 1, iterations: 3, maxDuration: '10m' },
    });
  });

  it('turns duration into constant-vus', () => {
    expect(deriveScenarios({ vus: 5, duration: '1m' }).scenarios).toEqual({
      default: { executor: 'constant-vus', vus: 5, duration: '1m' },
    });
  });

  it('turns stages into ramping-vus starting at vus', () => {
    const stages = [{ duration: '10s', target: 5 }];
    expect(deriveScenarios({ vus: 2, stages }).scenarios).toEqual({
      default: { executor: 'ramping-vus', startVUs: 2, stages },
    });
  });

  it('turns vus alone into shared-iterations of vus iterations, overriding scenarios with a warning', () => {
    const d = deriveScenarios({ vus: 4, scenarios: { a: { executor: 'constant-vus', duration: '1s' } } });
    expect(d.scenarios).toEqual({ default: { executor: 'shared-iterations', vus: 4, iterations: 4 } });
    expect(d.warnings).toEqual(['`vus=4` overrides scenarios configuration']);
  });

  it('defaults to one iteration of one VU', () => {
    expect(deriveScenarios({}).scenarios).toEqual({
      default: { executor: 'per-vu-iterations', vus: 1, iterations: 1 },
    });
  });

  it('reports conflicting execution options of one layer', () => {
    expect(deriveScenarios({ iterations: 1, stages: [{ duration: '1s', target: 1 }] }).problems).toEqual([
      'using `iterations` and `stages` options simultaneously is not allowed',
    ]);
  });
});
