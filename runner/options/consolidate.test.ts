import { describe, expect, it } from 'vitest';
import { consolidate } from './consolidate';

describe('consolidate', () => {
  it('lets a higher layer replace a key as a whole', () => {
    const { options } = consolidate([
      { name: 'script', options: { tags: { a: '1', b: '2' }, vus: 3 } },
      { name: 'cli', options: { tags: { c: '3' } } },
    ]);
    expect(options).toEqual({ tags: { c: '3' }, vus: 3 });
  });

  it('discards lower execution options when a higher layer sets one of them', () => {
    const { options, warnings } = consolidate([
      {
        name: 'script',
        options: { scenarios: { a: { executor: 'constant-vus', duration: '1s' } }, iterations: 5 },
      },
      { name: 'env', options: { duration: '10s' } },
    ]);
    expect(options).toEqual({ duration: '10s' });
    expect(warnings).toEqual(['"env" level configuration overrode scenarios configuration entirely']);
  });

  it('keeps vus when execution options are replaced (vus is not in the group)', () => {
    const { options } = consolidate([
      { name: 'script', options: { vus: 4, duration: '1m' } },
      { name: 'cli', options: { iterations: 8 } },
    ]);
    expect(options).toEqual({ vus: 4, iterations: 8 });
  });

  it('orders defaults < script < env < cli', () => {
    const { options } = consolidate([
      { name: 'default', options: { setupTimeout: '60s', vus: 1 } },
      { name: 'script', options: { setupTimeout: '10s', vus: 2 } },
      { name: 'env', options: { vus: 3 } },
      { name: 'cli', options: { setupTimeout: '5s' } },
    ]);
    expect(options).toEqual({ setupTimeout: '5s', vus: 3 });
  });
});
