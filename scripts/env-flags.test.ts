import { describe, expect, it } from 'vitest';
import { envFlags, envFromFlags, redactArgs } from './env-flags';

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
