import { describe, expect, it } from 'vitest';
import { EnvReader } from './env';
import { knob, knobHelp, knobHelpScript, readKnobs, wantsHelp } from './knobs';

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
