import { describe, expect, it } from 'vitest';
import { consoleSummary, errorsByStatusMarkdown, outcomeMarkdown, outcomeText } from './run-sections';

const failed = {
  dropped_iterations: 2,
  thresholds: {
    evaluated: true,
    passed: false,
    failed: [
      { metric: 'dropped_iterations', expression: 'count==0' },
      { metric: 'http_req_failed{shape:ann_only}', expression: 'rate==0' },
    ],
  },
};
const passed = { dropped_iterations: 0, thresholds: { evaluated: true, passed: true, failed: [] } };
const aborted = { dropped_iterations: 0, thresholds: { evaluated: false, passed: null, failed: [] } };

describe('outcome sections', () => {
  it('lists every failed expression with the dropped iterations, in Markdown and on the console', () => {
    expect(outcomeMarkdown(failed)).toEqual([
      'Failed thresholds (2); 2 dropped iterations:',
      '',
      '- `dropped_iterations`: `count==0`',
      '- `http_req_failed{shape:ann_only}`: `rate==0`',
    ]);
    expect(outcomeText(failed, ['results/a.md', 'results/a.json'])).toEqual([
      '  ✗ 2 thresholds failed (2 dropped iterations):',
      "    ✗ dropped_iterations 'count==0'",
      "    ✗ http_req_failed{shape:ann_only} 'rate==0'",
      '',
      '  wrote results/a.md',
      '  wrote results/a.json',
    ]);
  });

  it('says the thresholds were not evaluated when the run was aborted, rather than that they failed', () => {
    expect(outcomeMarkdown(aborted)).toEqual([
      'Thresholds not evaluated (aborted run); 0 dropped iterations.',
    ]);
    expect(outcomeText(aborted, [])).toEqual([
      '  - thresholds not evaluated: aborted run (0 dropped iterations)',
      '',
    ]);
  });

  it('says so in one line when every threshold passed', () => {
    expect(outcomeMarkdown(passed)).toEqual(['All thresholds passed; 0 dropped iterations.']);
    expect(outcomeText(passed, [])).toEqual(['  ✓ all thresholds passed, 0 dropped iterations', '']);
  });
});

describe('errorsByStatusMarkdown', () => {
  it('lists only the cells with errors, under their labels', () => {
    const cells: { id: string; errors: number; errors_by_status: Record<string, number> }[] = [
      { id: 'a', errors: 0, errors_by_status: {} },
      { id: 'b', errors: 5, errors_by_status: { '429': 4, '5xx': 1 } },
    ];
    expect(errorsByStatusMarkdown(cells, (c) => c.id)).toEqual([
      '',
      'Errors by status:',
      '',
      '- b: 429: 4, 5xx: 1',
    ]);
    expect(errorsByStatusMarkdown(cells.slice(0, 1), (c) => c.id)).toEqual([]);
  });
});

describe('consoleSummary', () => {
  it('sets title, heading, table, outcome and files apart by blank lines', () => {
    const record = {
      ...passed,
      started_at: '2026-01-02T03:04:05.000Z',
      finished_at: '2026-01-02T03:05:05.000Z',
      target: { kind: 'emulator' as const, base_url: 'http://127.0.0.1:8787', emulator: null },
      config: {},
      status: 'complete' as const,
      status_reason: null,
      versions: {
        bench: '0.1.0',
        commit: 'abc',
        dirty: false,
        built_at: null,
        runner: 'bench 0.1.0',
        node: 'v20',
      },
    };
    expect(
      consoleSummary(
        record,
        'demo',
        'namespace bench-x',
        ['  ingest 10 rows'],
        ['  a  b', '  1  2'],
        ['x.md'],
      ),
    ).toBe(
      [
        '',
        '  demo on emulator (http://127.0.0.1:8787), namespace bench-x',
        '  ingest 10 rows',
        '',
        '  a  b',
        '  1  2',
        '',
        '  ✓ all thresholds passed, 0 dropped iterations',
        '',
        '  wrote x.md',
        '',
        '',
      ].join('\n'),
    );
  });
});
