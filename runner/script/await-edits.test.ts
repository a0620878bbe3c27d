import { describe, expect, it } from 'vitest';
import { applyInsertions, columnShifts, originalColumn } from './await-edits';

describe('await edits', () => {
  const code = 'function f() {\n  g(h());\n}\n';
  const edits = [
    { at: 0, text: 'async ' },
    { at: 17, text: '(await ' },
    { at: 19, text: '(await ' },
    { at: 22, text: ')' },
    { at: 23, text: ')' },
  ];

  it('inserts each text at its offset of the original, in order', () => {
    expect(applyInsertions(code, edits)).toBe('async function f() {\n  (await g((await h())));\n}\n');
  });

  it('maps columns of the edited code back to the original, inside inserted text to where it went in', () => {
    const shifts = columnShifts(code, edits);
    expect(shifts).toEqual([
      [0, 0, 6],
      [1, 2, 7],
      [1, 4, 7],
      [1, 7, 1],
      [1, 8, 1],
    ]);
    // `function` and `f` on line 0 move by 6.
    expect(originalColumn(shifts, 0, 6)).toBe(0);
    expect(originalColumn(shifts, 0, 15)).toBe(9);
    // Line 1 edited: "  (await g((await h())));" - g at 9, h at 18, g's own `)` at 22, the `;` at 24.
    expect(originalColumn(shifts, 1, 9)).toBe(2);
    expect(originalColumn(shifts, 1, 18)).toBe(4);
    expect(originalColumn(shifts, 1, 4)).toBe(2);
    expect(originalColumn(shifts, 1, 22)).toBe(7);
    expect(originalColumn(shifts, 1, 23)).toBe(8);
    expect(originalColumn(shifts, 1, 24)).toBe(8);
    // A line without insertions is left as it is.
    expect(originalColumn(shifts, 2, 0)).toBe(0);
  });
});
