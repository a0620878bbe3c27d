import { describe, expect, it } from 'vitest';
import { exitName, firstError, renderReport, type ScriptRun } from './k6-scripts-report';

describe('firstError', () => {
  it("takes the message of k6's first level=error line, without colours or the rest of a multi-line message", () => {
    const output = [
      'time="2026-12-07T18:51:44Z" level=info msg="starting"',
      'time="2026-12-07T18:51:44Z" level=error msg="page.goto: net::ERR_NAME_NOT_RESOLVED\\nCall log:\\n\u001b[2m  - navigating\u001b[22m"',
      'time="2026-12-07T18:51:45Z" level=error msg="second"',
    ].join('\n');
    expect(firstError(output)).toBe('page.goto: net::ERR_NAME_NOT_RESOLVED');
  });

  it("takes the runner's own refusal line", () => {
    expect(firstError('bench: The moduleSpecifier "https://jslib.k6.io/x.js" couldn\'t be retrieved\n')).toBe(
      'bench: The moduleSpecifier "https://jslib.k6.io/x.js" couldn\'t be retrieved',
    );
  });

  it('is empty when nothing reads as an error', () => {
    expect(firstError('     ✓ status is 200\n')).toBe('');
  });
});

describe('renderReport', () => {
  const runs: ScriptRun[] = [
    { script: 'b.js', exitCode: 107, seconds: 0.42, output: 'bench: Unknown module "k6/x/foo"\n' },
    { script: 'a.js', exitCode: 0, seconds: 1.25, output: 'level=warn msg="k6/x not supported here"' },
    { script: 'c|d.js', exitCode: null, seconds: 90.01, output: '' },
    { script: 'e.js', exitCode: 0, seconds: 2, output: '' },
  ];

  it('counts scripts per exit code in numeric order, killed runs last, and lists scripts in the order given', () => {
    expect(renderReport(runs, 'make try-k6-scripts K6_SCRIPTS=x')).toBe(
      [
        '4 scripts, run by `make try-k6-scripts K6_SCRIPTS=x`',
        '',
        '| exit code | meaning | scripts |',
        '| --- | --- | ---: |',
        '| 0 | ok | 2 |',
        '| 107 | script exception | 1 |',
        '| killed | killed at the time limit | 1 |',
        '',
        'Scripts whose output says "not supported": 1',
        '',
        '| script | exit code | seconds | first error |',
        '| --- | ---: | ---: | --- |',
        '| b.js | 107 | 0.4 | bench: Unknown module "k6/x/foo" |',
        '| a.js | 0 | 1.3 | level=warn msg="k6/x not supported here" |',
        '| c\\|d.js | killed | 90.0 |  |',
        '| e.js | 0 | 2.0 |  |',
        '',
      ].join('\n'),
    );
  });

  it("names k6's exit codes and says when a code is not one of them", () => {
    expect([0, 99, 104, 108, 110, 255, 3].map(exitName)).toEqual([
      'ok',
      'thresholds failed',
      'invalid config',
      'script aborted',
      'marked as failed',
      'generic error',
      'not a k6 exit code',
    ]);
  });
});
