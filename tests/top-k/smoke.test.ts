// The smoke profile of the worked example (make top-k-smoke) inside `make test`: docs/adding-an-experiment.md's
// experiment builds, runs against a fresh emulator with its thresholds, and its result draws as a report.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchExperiment } from '../../cli/experiments/launch';
import type { TopKResult } from '../../lib/top-k/results/json';
import { classifyResult, writeResultReport } from '../../report';
import { tempDir } from '../temp-dir';

describe('make top-k-smoke', () => {
  const dir = tempDir('bench-top-k-smoke-');

  it('runs every top_k window, passes its thresholds, and its result draws', {
    timeout: 120_000,
  }, async () => {
    let output = '';
    const { exitCode, files } = await launchExperiment({
      makeTarget: 'top-k-smoke',
      extraArgs: ['--quiet', '--summary-export', join(dir, 'summary.json'), '-e', `RESULTS_DIR=${dir}`],
      env: { PATH: process.env.PATH },
      say: () => {},
      stdio: 'pipe',
      onOutput: (chunk) => {
        output += chunk;
      },
    });
    expect(exitCode, output).toBe(0);
    const json = files.find((f) => f.endsWith('.json')) as string;
    const r = JSON.parse(readFileSync(json, 'utf8')) as TopKResult;
    expect(r.status).toBe('complete');
    expect(r.thresholds).toMatchObject({ evaluated: true, passed: true });
    // 10 queries/s for 1 s per window, no warm-up: 10 starts each, none failed. A query still running when its
    // window's graceful stop ends is interrupted and not counted (k6's rule), which a loaded machine can cause.
    expect(r.cells.map((c) => [c.top_k, c.errors])).toEqual([
      [1, 0],
      [10, 0],
      [100, 0],
    ]);
    for (const c of r.cells) expect([9, 10], `top_k ${c.top_k}: ${c.requests} queries`).toContain(c.requests);
    for (const c of r.cells) expect(c.client_ms.p99, `top_k ${c.top_k}`).toBeGreaterThan(0);
    expect(r.config).toMatchObject({ ROWS: 2000, DIMS: 32, TOP_KS: '1,10,100', CONSISTENCY: 'strong' });
    const known = await classifyResult(JSON.parse(readFileSync(json, 'utf8')));
    expect(known.experiment).toBe('top-k');
    if (known.experiment === null) return;
    const report = writeResultReport(json, known);
    expect(report.written.map((f) => f.slice(json.length - 5))).toEqual(['.latency.svg', '.md', '.html']);
  });
});
