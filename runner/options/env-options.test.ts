import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from './env-options';
import { envNameOf } from './option-keys';

describe('optionsFromEnv', () => {
  it('maps option names to upper snake case', () => {
    expect(envNameOf('setupTimeout')).toBe('K6_SETUP_TIMEOUT');
    expect(envNameOf('insecureSkipTLSVerify')).toBe('K6_INSECURE_SKIP_TLS_VERIFY');
    expect(envNameOf('vus')).toBe('K6_VUS');
  });

  it('parses values by kind and ignores scenarios', () => {
    expect(
      optionsFromEnv({
        K6_VUS: '5',
        K6_DURATION: '10s',
        K6_NO_SETUP: 'true',
        K6_SUMMARY_TREND_STATS: 'avg,p(99)',
        K6_TAGS: 'a=1,b=2',
        K6_SCENARIOS: '{}',
      }),
    ).toEqual({
      vus: 5,
      duration: '10s',
      noSetup: true,
      summaryTrendStats: ['avg', 'p(99)'],
      tags: { a: '1', b: '2' },
    });
  });

  it('names the variable when a value is invalid (exit 104)', () => {
    expect(() => optionsFromEnv({ K6_VUS: 'many' })).toThrow(/K6_VUS: "many" is not an integer/);
    try {
      optionsFromEnv({ K6_DURATION: 'soon' });
    } catch (error) {
      expect((error as { exitCode: number }).exitCode).toBe(104);
    }
  });
});
