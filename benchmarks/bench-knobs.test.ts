import { describe, expect, it } from 'vitest';
import { choiceKnob, intKnob, KnobError, positiveKnob } from './bench-knobs';

describe('benchmark knobs', () => {
  it('fall back when unset or empty, and read what is given', () => {
    expect(intKnob('N', 7, 1, {})).toBe(7);
    expect(intKnob('N', 7, 1, { N: '' })).toBe(7);
    expect(intKnob('N', 7, 1, { N: '1_000_000' })).toBe(1_000_000);
    expect(positiveKnob('R', 2000, { R: '0.5' })).toBe(0.5);
    expect(choiceKnob('F', ['a', 'b'] as const, 'a', { F: 'b' })).toBe('b');
  });

  it('refuse a bad value with the name, what it takes and what it got', () => {
    expect(() => intKnob('BENCH_VUS', 20, 1, { BENCH_VUS: '2.5' })).toThrow(
      new KnobError('BENCH_VUS: expected a whole number of at least 1, got "2.5"'),
    );
    expect(() => intKnob('BENCH_TAIL', 0, 0, { BENCH_TAIL: '-1' })).toThrow(
      'BENCH_TAIL: expected a whole number of at least 0, got "-1"',
    );
    expect(() => positiveKnob('BENCH_RATE', 1, { BENCH_RATE: 'fast' })).toThrow(
      'BENCH_RATE: expected a positive number, got "fast"',
    );
    expect(() =>
      choiceKnob('BENCH_FORMS', ['sync', 'async'] as const, 'sync', { BENCH_FORMS: 'both' }),
    ).toThrow('BENCH_FORMS: expected one of sync, async, got "both"');
  });
});
