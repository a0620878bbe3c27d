import { describe, expect, it } from 'vitest';
import { formatConsoleArgs } from './console-format';

describe('formatConsoleArgs', () => {
  it('renders values the way k6 logs them', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(formatConsoleArgs(['hello', 1, true])).toBe('hello 1 true');
    expect(formatConsoleArgs([{ a: 1, b: 'x' }])).toBe('{ a: 1, b: "x" }');
    expect(formatConsoleArgs([[1, 2]])).toBe('[ 1, 2 ]');
    expect(formatConsoleArgs([() => 1])).toBe('[object Function]');
    expect(formatConsoleArgs([cyclic])).toBe('{ a: 1, self: [Circular] }');
    expect(formatConsoleArgs([new Error('boom')])).toBe('Error: boom');
  });
});
