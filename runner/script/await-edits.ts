// Applies the insertions of runner/script/hosting.ts to a bundle and maps positions in the edited code back to the
// bundle's own, so stack frames still resolve through the bundle's source map (runner/vu/script-stack.ts). Insertions
// never hold a newline: only columns move.
import type { Insertion } from './hosting';

/** One insertion as a line and a column of the original code (0-based) and its length. */
export type ColumnShift = [line: number, column: number, length: number];

export function applyInsertions(code: string, edits: readonly Insertion[]): string {
  const parts: string[] = [];
  let from = 0;
  for (const edit of edits) {
    parts.push(code.slice(from, edit.at), edit.text);
    from = edit.at;
  }
  parts.push(code.slice(from));
  return parts.join('');
}

/** The insertions as (line, column, length), in order: what originalColumn needs. */
export function columnShifts(code: string, edits: readonly Insertion[]): ColumnShift[] {
  const out: ColumnShift[] = [];
  let line = 0;
  let lineStart = 0;
  let scanned = 0;
  for (const edit of edits) {
    for (; scanned < edit.at; scanned++)
      if (code.charCodeAt(scanned) === 10) {
        line++;
        lineStart = scanned + 1;
      }
    out.push([line, edit.at - lineStart, edit.text.length]);
  }
  return out;
}

/**
 * The original 0-based column of a 0-based (line, column) of the edited code: columns after an insertion move back by
 * its length; a column inside inserted text maps to where the text was inserted.
 */
export function originalColumn(shifts: readonly ColumnShift[], line: number, column: number): number {
  let moved = 0;
  for (const [l, c, length] of shifts) {
    if (l < line) continue;
    if (l > line) break;
    const editedStart = c + moved;
    if (column < editedStart) break;
    if (column < editedStart + length) return c;
    moved += length;
  }
  return column - moved;
}
