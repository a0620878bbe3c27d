import { describe, expect, it } from 'vitest';
import { UNIMPLEMENTED_OPTIONS } from './option-keys';
import { NOT_IMPLEMENTED, parseRunFlags, RUN_FLAGS } from './run-flags';

describe('parseRunFlags', () => {
  it('maps k6 flags to the cli option layer and runtime settings', () => {
    const r = parseRunFlags([
      '-u',
      '5',
      '--duration=30s',
      '-e',
      'A=1',
      '--env',
      'B=x=y',
      '-s',
      '10s:5',
      '--stage',
      '1m:0',
      '--out',
      'json=a.json.gz',
      '-o',
      'csv=b.csv',
      '--tag',
      'run=7',
      '--summary-trend-stats',
      'avg,p(99)',
      '--no-setup',
      '--http-debug',
      '-q',
      'script.js',
    ]);
    expect(r.script).toBe('script.js');
    expect(r.cliOptions).toEqual({
      vus: 5,
      duration: '30s',
      stages: [
        { duration: '10s', target: 5 },
        { duration: '1m', target: 0 },
      ],
      tags: { run: '7' },
      summaryTrendStats: ['avg', 'p(99)'],
      noSetup: true,
      httpDebug: 'headers',
    });
    expect(r.cliEnv).toEqual({ A: '1', B: 'x=y' });
    expect(r.out).toEqual(['json=a.json.gz', 'csv=b.csv']);
    expect(r.quiet).toBe(true);
  });

  it('names the bad flag or value', () => {
    expect(() => parseRunFlags(['--nope'])).toThrow(/unknown flag --nope/);
    expect(() => parseRunFlags(['-u', 'many'])).toThrow(/--vus expects a whole number, got "many"/);
    expect(() => parseRunFlags(['--stage', '10s'])).toThrow(/DURATION:TARGET/);
    expect(() => parseRunFlags(['--tag', 'a='])).toThrow(/must not be empty/);
    expect(() => parseRunFlags(['a.js', 'b.js'])).toThrow(/takes one script/);
    expect(() => parseRunFlags(['--summary-mode', 'legacy'])).toThrow(/compact, full or disabled/);
  });

  it('accepts k6 flags bench does not implement, as options that warn or as ignored flags', () => {
    const r = parseRunFlags(['--rps', '10', '--address', 'localhost:6565', '--no-usage-report', 'x.js']);
    expect(r.cliOptions).toEqual({ rps: 10 });
    expect(r.ignoredFlags).toEqual(['--address', '--no-usage-report']);
  });

  it("says 'not implemented' in the help exactly for the flags whose options the runner does not implement", () => {
    // The option keys each flag sets, given a value it accepts (--execution-segment's help still said 'not
    // implemented' after issue 18 implemented segments).
    const setBy = (flag: (typeof RUN_FLAGS)[number]): string[] => {
      const tries =
        flag.arg === 'none'
          ? [[`--${flag.name}`]]
          : ['1', '1/3:2/3', 'a=b'].map((v) => [`--${flag.name}=${v}`]);
      for (const args of tries) {
        try {
          return Object.keys(parseRunFlags(args).cliOptions);
        } catch {}
      }
      return [];
    };
    const unimplemented = new Set(UNIMPLEMENTED_OPTIONS);
    const described = RUN_FLAGS.filter((f) => f.description === NOT_IMPLEMENTED).map((f) => f.name);
    const setting = RUN_FLAGS.filter((f) => {
      const keys = setBy(f);
      return keys.length > 0 && keys.every((k) => unimplemented.has(k));
    });
    expect(described).toEqual(setting.map((f) => f.name));
    expect(described).toEqual(['rps', 'dns', 'blacklist-ip', 'block-hostnames', 'local-ips', 'paused']);
    const segment = RUN_FLAGS.find((f) => f.name === 'execution-segment');
    expect(segment?.description).toContain('from:to');
  });

  it('reads --http-debug=full and --include-system-env-vars=false', () => {
    const r = parseRunFlags(['--http-debug=full', '--include-system-env-vars=false', 'x.js']);
    expect(r.cliOptions.httpDebug).toBe('full');
    expect(r.includeSystemEnvVars).toBe(false);
  });
});
