import { describe, expect, it } from 'vitest';
import { EnvReader } from './env';
import {
  checkKnobNames,
  editDistance,
  knob,
  knobHelp,
  knobHelpScript,
  readKnobs,
  unknownKnobs,
  wantsHelp,
} from './knobs';

const TABLE = {
  ROWS: knob('1000', 'rows per namespace', (e, n) => e.int(n, 1000, { min: 1 })),
  MODE: knob('fast', 'how', (e, n) => e.oneOf(n, ['fast', 'slow'], 'fast')),
};

describe('knob tables', () => {
  it('parse every knob in table order, typed by its parser', () => {
    const k = readKnobs(TABLE, new EnvReader({ ROWS: '7' }));
    expect(k).toEqual({ ROWS: 7, MODE: 'fast' });
    expect(() => readKnobs(TABLE, new EnvReader({ MODE: 'odd' }))).toThrow('MODE: "odd" is not allowed');
  });

  it('print as name / default / meaning columns under the usage lines', () => {
    expect(knobHelp('demo.js knobs:', ['k6 run demo.js -e ROWS=5'], TABLE)).toBe(
      [
        '',
        'demo.js knobs:',
        '',
        '  k6 run demo.js -e ROWS=5',
        '',
        '  knob  default  meaning',
        '  ROWS  1000     rows per namespace',
        '  MODE  fast     how',
        '',
        '',
      ].join('\n'),
    );
  });

  it('answer HELP=1 with one no-op iteration and the table on stdout', () => {
    expect([
      wantsHelp({ HELP: '1' }),
      wantsHelp({ HELP: 'yes' }),
      wantsHelp({ HELP: '0' }),
      wantsHelp({}),
    ]).toEqual([true, true, false, false]);
    const script = knobHelpScript('the table\n', ['query', 'write']);
    expect(script.options).toEqual({
      scenarios: { help: { executor: 'shared-iterations', exec: 'query', vus: 1, iterations: 1 } },
    });
    expect(script.setup()).toBeUndefined();
    expect(script.handleSummary()).toEqual({ stdout: 'the table\n' });
    expect(typeof script.write).toBe('function');
  });
});

describe('misspelt knobs', () => {
  const KNOBS = {
    SEED: knob('random', 'seed', (e) => e.raw('SEED')),
    SEED_ROWS: knob('100', 'rows', (e, n) => e.int(n, 100)),
    QUERY_RATE: knob('20', 'rate', (e, n) => e.number(n, 20)),
    TOP_K: knob('10', 'k', (e, n) => e.int(n, 10)),
    BENCH_NODE_VERSION: knob('unknown', 'node', (e, n) => e.string(n, 'unknown')),
  };

  it('counts typos as an edit distance with swaps', () => {
    expect([
      editDistance('SEED_ROW', 'SEED_ROWS'),
      editDistance('QUERY_RTAE', 'QUERY_RATE'),
      editDistance('A', 'B'),
    ]).toEqual([1, 1, 1]);
    expect(editDistance('HOME', 'SEED')).toBe(4);
  });

  it('finds near misses, other case and shared first words, each with the knob it most likely meant', () => {
    expect(
      unknownKnobs(KNOBS, {
        SEED_ROW: '10',
        query_rate: '5',
        QUERY_RATES: '5',
        SEED_COUNT: '3',
        TOPK: '3',
        QUERY_RAT: '3',
      }),
    ).toEqual([
      { name: 'SEED_ROW', suggestion: 'SEED_ROWS' },
      { name: 'query_rate', suggestion: 'QUERY_RATE' },
      { name: 'QUERY_RATES', suggestion: 'QUERY_RATE' },
      { name: 'SEED_COUNT', suggestion: 'SEED_ROWS' },
      { name: 'TOPK', suggestion: 'TOP_K' },
      { name: 'QUERY_RAT', suggestion: 'QUERY_RATE' },
    ]);
  });

  it("leaves the rest of the process environment alone, and other tools' variables that share a common word", () => {
    expect(
      unknownKnobs(KNOBS, {
        PATH: '/bin',
        HOME: '/root',
        CI: 'true',
        MAKEFLAGS: '',
        TOP_LEVEL: '1',
        BENCH_EMULATOR_NODE_ARGS: '--cpu-prof',
        TURBOPUFFER_LOG: 'debug',
        SEED: '1',
      }),
    ).toEqual([]);
  });

  it('refuse in one message naming the first, with every suggestion, unless STRICT_KNOBS=0', () => {
    const env = { SEED_ROW: '10', QUERY_RATES: '5' };
    expect(() => checkKnobNames(KNOBS, env, 'build/x.js')).toThrow(
      'SEED_ROW: is not a knob of build/x.js: did you mean SEED_ROWS? Not knobs either: QUERY_RATES (QUERY_RATE?). Nothing ran.',
    );
    expect(() => checkKnobNames(KNOBS, { ...env, STRICT_KNOBS: '0' }, 'build/x.js')).not.toThrow();
  });
});
