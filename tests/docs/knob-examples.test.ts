// Example commands teach knob names: every `-e NAME=value` that the repository's manuals, comments and help texts
// give an experiment (`build/backlog.js`, `make backlog ARGS="..."`, ...) names a knob of that experiment. A name that
// is no knob and looks like none (runner/README.md once had `k6 run build/backlog.js -e TARGET_URL=...`) passes the
// strict-knob check unnoticed and the run quietly uses its default.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKLOG_KNOBS } from '../../lib/backlog/config';
import { FILTER_COST_KNOBS } from '../../lib/filter-cost/config';
import type { KnobTable } from '../../lib/knobs';
import { root } from '../experiment-script';

const EXPERIMENTS: ReadonlyArray<{ bundle: string; command: RegExp; knobs: KnobTable }> = [
  {
    bundle: 'build/backlog.js',
    command: /\bbuild\/backlog\.js\b|\bmake backlog(-smoke)?\b/,
    knobs: BACKLOG_KNOBS,
  },
  {
    bundle: 'build/filter-cost.js',
    command: /\bbuild\/filter-cost\.js\b|\bmake filter-cost(-smoke)?\b/,
    knobs: FILTER_COST_KNOBS,
  },
];

/** The placeholder the help texts write for any knob (`Knobs (-e NAME=value)`). */
const PLACEHOLDER = 'NAME';

/** `-e NAME=` on a line that runs experiment `knobs`, where NAME is not one of them. */
function unknownExampleKnobs(path: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const { bundle, command, knobs } of EXPERIMENTS) {
      if (!command.test(line)) continue;
      for (const m of line.matchAll(/-e ([A-Za-z_][A-Za-z0-9_]*)=/g))
        if (m[1] !== PLACEHOLDER && !(m[1] in knobs))
          out.push(`${path}:${i + 1}: -e ${m[1]}= is not a knob of ${bundle}`);
    }
  });
  return out;
}

describe('example commands of the experiments', () => {
  it('name only knobs the experiment has', () => {
    // Tests give bad names on purpose (the refusal tests); results are records of past runs.
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(
        (f) =>
          /\.(md|ts|yaml)$|^Makefile$/.test(f) && !/^(tests|results)\//.test(f) && !f.endsWith('.test.ts'),
      );
    expect(files.length).toBeGreaterThan(50);
    const problems = files.flatMap((f) => unknownExampleKnobs(f, readFileSync(join(root, f), 'utf8')));
    expect(problems).toEqual([]);
  });

  it('catch a name that is no knob (the check is not vacuous)', () => {
    expect(
      unknownExampleKnobs('x.md', 'k6 run build/backlog.js -e TARGET_URL=... -e SEED_ROWS=10\n'),
    ).toEqual(['x.md:1: -e TARGET_URL= is not a knob of build/backlog.js']);
    expect(unknownExampleKnobs('x.md', 'make filter-cost ARGS="-e ROWS=10 -e QUERY_MODE=workers"\n')).toEqual(
      [],
    );
    expect(unknownExampleKnobs('x.md', 'npx bench run scenarios/hello.ts -e TARGET_URL=x\n')).toEqual([]);
  });
});
