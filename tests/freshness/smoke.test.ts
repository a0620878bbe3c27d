// The smoke profile of experiment 3 (make freshness-smoke) inside `make test`: every band at both consistencies
// against a fresh emulator, with the thresholds on (strong probes seen at the first read below the limit and
// refused above it, eventual probes seen at the first read below the tail and first seen past it only inside the
// window indexing progress predicts, no probe unseen, no read finding part of a probe, no unexpected error).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { launchExperiment } from '../../cli/experiments/launch';
import type { FreshnessResult } from '../../lib/freshness/results/json';
import { tempDir } from '../temp-dir';

describe('make freshness-smoke', () => {
  const dir = tempDir('bench-freshness-smoke-');

  it('measures every band at both consistencies and passes every threshold', {
    timeout: 240_000,
  }, async () => {
    let output = '';
    const { exitCode, files } = await launchExperiment({
      makeTarget: 'freshness-smoke',
      extraArgs: ['--quiet', '-e', `RESULTS_DIR=${dir}`],
      env: { PATH: process.env.PATH },
      say: () => {},
      stdio: 'pipe',
      onOutput: (chunk) => {
        output += chunk;
      },
    });
    expect(exitCode, output).toBe(0);
    const r = JSON.parse(
      readFileSync(files.find((f) => f.endsWith('.json')) as string, 'utf8'),
    ) as FreshnessResult;
    expect(r.status).toBe('complete');
    expect(r.thresholds).toMatchObject({ evaluated: true, passed: true });
    expect(r.bands.map((b) => b.band)).toEqual(['idle', 'below_tail', 'above_tail', 'above_limit']);
    for (const b of r.bands) expect(b.probes, b.band).toBeGreaterThan(0);
    const row = (band: string, read: string) =>
      r.visibility.find((v) => v.band === band && `${v.consistency}_${v.method}` === read);
    for (const band of ['idle', 'below_tail', 'above_tail'])
      for (const read of ['strong_id', 'strong_ann'])
        expect(row(band, read)?.seen_at_first_read, band).toBe(1);
    for (const band of ['idle', 'below_tail'])
      for (const read of ['eventual_id', 'eventual_ann'])
        expect(row(band, read)?.seen_at_first_read, band).toBe(1);
    for (const band of ['above_tail', 'above_limit'])
      for (const read of ['eventual_id', 'eventual_ann']) {
        const v = row(band, read);
        expect(v?.seen_at_first_read, band).toBe(0);
        // Seen later, inside the predicted window (give or take the stated tolerance), by every probe.
        expect(v?.never_seen, band).toBe(0);
        expect(Math.abs(v?.lag_error_ms?.max ?? Number.NaN), band).toBeLessThanOrEqual(
          r.limits.lag_tolerance_ms,
        );
      }
    for (const read of ['strong_id', 'strong_ann']) {
      const v = row('above_limit', read);
      expect(v?.first_read.refused).toBe(v?.probes);
    }
    expect(r.queries.filter((q) => q.consistency === 'eventual').every((q) => q.errors === 0)).toBe(true);
    expect(r.claims.map((c) => c.verdict)).toEqual([
      'holds',
      'cannot show locally',
      'holds',
      'holds',
      'cannot show locally',
      'holds',
    ]);
    expect(readFileSync(files.find((f) => f.endsWith('.md')) as string, 'utf8')).toContain(
      '## Visibility of each write',
    );
  });
});
