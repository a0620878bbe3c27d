import { describe, expect, it } from 'vitest';
import { parseRunFlags } from '../../runner/options/run-flags';
import { envFlags, envFromFlags, redactArgs, withoutEnvFlags } from './env-flags';

describe('env flags', () => {
  it('redacts secret-looking -e values and reads -e pairs like bench run', () => {
    expect(redactArgs(['-e', 'TURBOPUFFER_API_KEY=tpuf_x', '-e', 'SEED=1', '--env', 'MY_TOKEN=abc'])).toEqual(
      ['-e', 'TURBOPUFFER_API_KEY=<redacted>', '-e', 'SEED=1', '--env', 'MY_TOKEN=<redacted>'],
    );
    expect(redactArgs(['--env=API_KEY=z', '--env=SEED=2'])).toEqual([
      '--env=API_KEY=<redacted>',
      '--env=SEED=2',
    ]);
    expect(envFromFlags(['-e', 'A=1', '--quiet', '--env=B=x=y', '-e', 'A=2'])).toEqual({ A: '2', B: 'x=y' });
  });
});

describe('envFlags', () => {
  it('writes one -e pair per knob in order, and envFromFlags reads them back', () => {
    const flags = envFlags({ ROWS: '2000', RESULTS_DIR: 'results/scratch' });
    expect(flags).toEqual(['-e', 'ROWS=2000', '-e', 'RESULTS_DIR=results/scratch']);
    expect(envFromFlags(flags)).toEqual({ ROWS: '2000', RESULTS_DIR: 'results/scratch' });
  });
});

describe('every form of -e that bench run reads', () => {
  // `-eK=V` and `-e=K=V` reach the run as -e does: the launcher must see them too, or a key given so would pass the
  // target rule unseen (the target line would say TURBOPUFFER_API_KEY is not set) and never be set aside.
  const args = [
    '-eTURBOPUFFER_API_KEY=k1',
    '-e=TURBOPUFFER_REGION=r',
    '--env=SEED=3',
    '-e',
    'ROWS=9',
    '--quiet',
  ];

  it('envFromFlags reads what bench run reads', () => {
    expect(envFromFlags(args)).toEqual(parseRunFlags([...args, 'x.js']).cliEnv);
    expect(envFromFlags(args)).toEqual({
      TURBOPUFFER_API_KEY: 'k1',
      TURBOPUFFER_REGION: 'r',
      SEED: '3',
      ROWS: '9',
    });
  });

  it('withoutEnvFlags drops the listed names in any form and keeps the rest as given', () => {
    expect(withoutEnvFlags(args, ['TURBOPUFFER_API_KEY', 'TURBOPUFFER_REGION'])).toEqual([
      '--env=SEED=3',
      '-e',
      'ROWS=9',
      '--quiet',
    ]);
    // -e's value is never read as a flag of its own: a knob value that starts with -e stays.
    expect(withoutEnvFlags(['-e', 'NAME=-eX=1'], ['X'])).toEqual(['-e', 'NAME=-eX=1']);
  });
});
