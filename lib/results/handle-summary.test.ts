import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeHandleSummary } from './handle-summary';

describe('makeHandleSummary', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
  });
  afterEach(() => vi.useRealTimers());

  const handleSummary = makeHandleSummary<{ namespace: string }, { ns: string; at: number }>({
    title: 'demo run',
    resultsDir: 'results/scratch',
    fileName: (setup) => setup.namespace,
    build: (_data, setup, finishedAtMs) => ({ ns: setup.namespace, at: finishedAtMs }),
    markdown: (r) => `# ${r.ns}\n`,
    text: (r, files) => `${r.ns}: ${files.join(' ')}\n`,
  });

  it('writes <dir>/<namespace>-<finish time>.md and .json (setup data last) and prints the text naming both', () => {
    const out = handleSummary({ metrics: {}, setup_data: { namespace: 'bench-x' } });
    expect(out).toEqual({
      'results/scratch/bench-x-20260102T030405Z.md': '# bench-x\n',
      'results/scratch/bench-x-20260102T030405Z.json':
        '{\n  "ns": "bench-x",\n  "at": 1767323045678,\n  "setup_data": {\n    "namespace": "bench-x"\n  }\n}\n',
      stdout:
        'bench-x: results/scratch/bench-x-20260102T030405Z.md results/scratch/bench-x-20260102T030405Z.json\n',
    });
  });

  it('writes no file when setup() did not complete, and does not report its empty thresholds as failed', () => {
    const out = handleSummary({
      metrics: {
        http_reqs: { type: 'counter', values: { count: 0 }, thresholds: { 'count>0': { ok: false } } },
      },
    });
    expect(out).toEqual({
      stdout:
        '\n  demo run: setup() did not complete (it failed, or the run was interrupted first), so nothing was measured and no result files were written.\n\n',
    });
  });
});
