// One rule for the target, the same for every experiment make target (cli/experiments/target-rule.ts): the decision for each
// environment, then the make targets themselves, run through make with a made-up key (nothing reaches a network:
// each is refused before any request, by the launcher or by the script in init).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeTargets } from '../cli/experiments/experiments';
import { chooseTarget } from '../cli/experiments/target-rule';
import { FAKE_KEY, root } from './experiment-script';

const MAKE_TARGETS = await makeTargets();
const TARGETS = Object.keys(MAKE_TARGETS);
const KEY = { TURBOPUFFER_API_KEY: FAKE_KEY };
const REGION = { TURBOPUFFER_REGION: 'gcp-us-central1' };

/** The decision as one comparable line: kind, why, what is set aside; or the refusal. */
function decide(target: string, env: Record<string, string>): string {
  try {
    const c = chooseTarget(target, MAKE_TARGETS[target], env);
    return `${c.lines[0]}${c.kind === 'emulator' && c.setAside.length > 0 ? ` | set aside ${c.setAside.join(',')}` : ''}`;
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

describe('the target rule', () => {
  it.each([
    [{}, 'because TURBOPUFFER_API_KEY is not set'],
    [REGION, 'because TURBOPUFFER_API_KEY is not set | set aside TURBOPUFFER_REGION'],
    [
      { ...KEY, ...REGION, BENCH_TARGET: 'emulator' },
      'because BENCH_TARGET=emulator | set aside TURBOPUFFER_API_KEY,TURBOPUFFER_REGION',
    ],
  ])('%j: a fresh emulator for every make target, saying why and what it sets aside', (env, why) => {
    for (const t of TARGETS) {
      expect(decide(t, env), t).toMatch(/^target: a fresh local emulator \(bench emulator.*\), because /);
      expect(decide(t, env).endsWith(why), t).toBe(true);
    }
  });

  it('with a key: the real service for the targets that have a service profile, a refusal for the others', () => {
    const env = { ...KEY, ...REGION };
    for (const t of TARGETS) {
      const experiment = MAKE_TARGETS[t].experiment;
      expect(decide(t, env), t).toBe(
        t.endsWith('-smoke')
          ? `refused: make ${t} runs only against the local emulator (its profile needs the emulator's scaled ` +
              'limits), but TURBOPUFFER_API_KEY is set, which means the real service. Unset TURBOPUFFER_API_KEY or ' +
              `add BENCH_TARGET=emulator; make ${experiment} has a real-service profile`
          : 'target: the real turbopuffer service at https://gcp-us-central1.turbopuffer.com, because ' +
              'TURBOPUFFER_API_KEY is set',
      );
    }
    expect(TARGETS).toEqual(
      expect.arrayContaining(['backlog', 'backlog-smoke', 'filter-cost', 'filter-cost-smoke']),
    );
  });

  it.each([
    [KEY, 'refused: TURBOPUFFER_REGION: is required with TURBOPUFFER_API_KEY'],
    [{ BENCH_TARGET: 'service' }, 'refused: BENCH_TARGET=service needs TURBOPUFFER_API_KEY'],
    [{ BENCH_TARGET: 'cloud' }, 'refused: BENCH_TARGET: "cloud" is not a target'],
  ])('%j: the same refusal from both experiments', (env, refusal) => {
    for (const t of ['backlog', 'filter-cost'] as const) expect(decide(t, env), t).toContain(refusal);
  });

  it('never puts the key into what it prints', () => {
    for (const t of TARGETS)
      for (const env of [KEY, { ...KEY, ...REGION }, { ...KEY, BENCH_TARGET: 'emulator' }])
        expect(decide(t, env)).not.toContain(FAKE_KEY);
  });
});

describe('the experiment make targets', () => {
  const makefile = readFileSync(`${root}/Makefile`, 'utf8');

  it('all run through the one launcher, and the launcher knows exactly them', () => {
    // The Makefile finds the experiments itself (lib/*/experiment.ts); ask make which targets it has.
    const listed = spawnSync(
      'make',
      ['-s', '--eval', 'print-targets: ; @echo $(EXPERIMENT_TARGETS)', 'print-targets'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(listed.stdout.trim().split(/\s+/).sort()).toEqual([...TARGETS].sort());
    expect(makefile).toMatch(/^\$\(EXPERIMENT_TARGETS\): build\n\t@\$\(RUN_AND_REPORT\) \$\(QUIET_FAIL\)$/m);
    // node with tsx's loader: no npm or tsx CLI in between to relay a Ctrl+C a second time (k6's "exit now").
    expect(makefile).toMatch(/^RUN_EXPERIMENT = node --import tsx cli\/experiments\/run-experiment.ts \$@ /m);
    // The launcher runs and then draws the report; Ctrl+C does not end the recipe's shell before it is done.
    expect(makefile).toMatch(/^RUN_AND_REPORT = trap : INT; \$\(RUN_EXPERIMENT\)$/m);
  });

  // make -o build: the bundles are there already (global setup); nothing else is made.
  const make = (target: string, env: Record<string, string>) => {
    const res = spawnSync('make', ['-s', '-o', 'build', target], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    return { code: res.status, signal: res.signal, output: `${res.stdout}${res.stderr}` };
  };

  it.each(TARGETS)(
    '%s with a made-up key says what it does with it, and stops with the message alone',
    (t) => {
      const { code, output } = make(t, { ...KEY, ...REGION });
      expect(code, output).not.toBe(0);
      expect(output).not.toContain(FAKE_KEY);
      expect(output).not.toMatch(/make: \*\*\*|Error \d+/);
      if (MAKE_TARGETS[t].service)
        expect(output).toContain(
          `${MAKE_TARGETS[t].experiment}: target: the real turbopuffer service at https://gcp-us-central1.turbopuffer.com, because TURBOPUFFER_API_KEY is set`,
        );
      else expect(output).toContain(`make ${t} runs only against the local emulator`);
    },
  );

  it.each([
    ['-e SEED_ROWS=abc', 'backlog: SEED_ROWS: "abc" is not a whole number >= 1'],
    ['--instances abc', 'backlog: --instances expects a whole number, got "abc"'],
    ['--bogus', 'backlog: unknown flag --bogus (hint: run `bench run --help` for the list of flags)'],
  ])('ARGS="%s": the message alone, before any emulator starts', (args, message) => {
    const { code, output } = make('backlog-smoke', { ARGS: args });
    expect(code, output).not.toBe(0);
    // The target and profile lines, then the message: no emulator started (and so none shutting down), no stack.
    expect(output.trim().split('\n').slice(2), output).toEqual([message]);
  });
});
