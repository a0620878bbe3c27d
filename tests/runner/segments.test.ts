// Execution segments through the CLI: three instances of one test, each run with its segment of `0,1/3,2/3,1`, do
// the unsegmented test's work exactly once between them, with test-wide ids unique across instances.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bench, fixture, points, readNdjson, scratch } from './harness';

const tmp = scratch();
afterAll(() => tmp.cleanup());

const SEQUENCE = '0,1/3,2/3,1';
const SEGMENTS = ['0:1/3', '1/3:2/3', '2/3:1'];

describe('execution segments', () => {
  it('split the iterations exactly, with iterationInTest and idInTest unique across the instances', async () => {
    const runs = await Promise.all(
      SEGMENTS.map(async (segment, i) => {
        const out = join(tmp.dir, `ids-${i}.ndjson`);
        // Alone, an instance misses the whole test's thresholds: they are checked on merged data elsewhere.
        const args = [
          'run',
          '--no-thresholds',
          '--execution-segment',
          segment,
          '--execution-segment-sequence',
          SEQUENCE,
        ];
        const r = await bench([...args, '--out', `json=${out}`, fixture('instances-merged.js')]);
        expect(r.code, r.stderr).toBe(0);
        return { r, ids: points(readNdjson(out), 'fixture_ids').map((p) => p.data.tags ?? {}) };
      }),
    );
    expect(runs[1].r.stdout).toContain('scenarios: (33.33%) 2 scenarios, 2 max VUs');
    expect(runs[1].r.stdout).toContain('* shared: 3 iterations shared among 1 VUs');
    const byScenario = (scenario: string) =>
      runs.map(({ ids }) => ids.filter((t) => t.scenario === scenario).map((t) => Number(t.it)));
    // shared-iterations: 9 iterations, 3 per instance; constant-arrival-rate: 20 starts, split 7/7/6.
    expect(byScenario('shared').map((its) => its.length)).toEqual([3, 3, 3]);
    expect(
      byScenario('shared')
        .flat()
        .sort((a, b) => a - b),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(byScenario('arrival').map((its) => its.length)).toEqual([7, 7, 6]);
    expect(
      byScenario('arrival')
        .flat()
        .sort((a, b) => a - b),
    ).toEqual([...Array(20).keys()]);
    // Two VUs per instance, local ids 1 and 2 everywhere; test-wide ids 1..6 once each.
    const vus = runs.map(({ ids }) => [...new Set(ids.map((t) => `${t.local}:${t.vu}`))].sort());
    expect(vus).toEqual([
      ['1:1', '2:4'],
      ['1:2', '2:5'],
      ['1:3', '2:6'],
    ]);
  });

  it('refuses a segment outside its sequence before running anything', async () => {
    const r = await bench([
      'run',
      '--execution-segment',
      '1/4:3/4',
      '--execution-segment-sequence',
      SEQUENCE,
      fixture('instances-merged.js'),
    ]);
    expect(r.code).toBe(104);
    expect(r.stderr).toContain("execution segment 1/4:3/4 is not one of the sequence's segments");
  });
});
