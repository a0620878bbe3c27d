// bench run --instances and bench merge through the CLI: one merged result from segmented processes.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bench, fixture, points, readNdjson, scratch } from './harness';

const tmp = scratch();
afterAll(() => tmp.cleanup());

const idsOf = (file: string) =>
  points(readNdjson(file), 'fixture_ids').map((p) => `${p.data.tags?.scenario}:${p.data.tags?.it}`);

describe('bench run --instances', () => {
  it('runs setup and teardown once, hands setup data to every instance and gates on the merged samples', async () => {
    const out = join(tmp.dir, 'merged.ndjson');
    const r = await bench([
      'run',
      '--instances',
      '3',
      '--out',
      `json=${out}`,
      fixture('instances-merged.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'execution: local, 3 instances (bench --instances 3: the segments of 0,1/3,2/3,1',
    );
    expect(r.stdout).toContain("✓ 'count==29' count=29");
    expect(r.stderr.match(/setup ran/g)).toHaveLength(1);
    expect(r.stderr.match(/teardown ran with 42/g)).toHaveLength(1);
    const ids = idsOf(out);
    expect(ids).toHaveLength(29);
    expect(new Set(ids).size).toBe(29);
  });

  it('refuses --execution-segment beside --instances before running anything', async () => {
    const r = await bench([
      'run',
      '--instances',
      '2',
      '--execution-segment',
      '1/2',
      fixture('instances-merged.js'),
    ]);
    expect(r.code).toBe(255);
    expect(r.stderr).toContain('--execution-segment cannot be combined with --instances');
  });
});

describe('bench merge', () => {
  it('evaluates the thresholds of the streams of separately run segments on their merged samples', async () => {
    const segments = ['0:1/3', '1/3:2/3', '2/3:1'];
    const files = segments.map((_, i) => join(tmp.dir, `part-${i}.ndjson`));
    const runs = await Promise.all(
      segments.map((segment, i) =>
        bench([
          'run',
          '-q',
          '--summary-mode',
          'disabled',
          '--execution-segment',
          segment,
          '--execution-segment-sequence',
          '0,1/3,2/3,1',
          '--out',
          `json=${files[i]}`,
          fixture('instances-merged.js'),
        ]),
      ),
    );
    // Each instance alone has a third of the count: its own thresholds fail (k6-operator's per-instance verdict).
    for (const r of runs) expect(r.code, r.stderr).toBe(99);
    const merged = join(tmp.dir, 'merged-after.ndjson');
    const r = await bench(['merge', '--out', `json=${merged}`, ...files]);
    expect(r.code, r.stderr).toBe(0);
    // Thresholds come from the streams' Metric lines; counts are the union's.
    expect(r.stdout).toContain("✓ 'count==29' count=29");
    expect(new Set(idsOf(merged)).size).toBe(29);
  });
});
