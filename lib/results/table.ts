// Header and rows of cell strings -> the two table forms every result renderer prints: a Markdown pipe table and
// fixed-width console columns. Pure.

type Rows = readonly (readonly string[])[];

/**
 * `| a | b |` lines under a `|---|---|` separator. Cells are not padded: the published tables and their golden
 * files keep the compact form, and Markdown viewers align the columns themselves.
 */
export function markdownTable(header: readonly string[], rows: Rows): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

/** Every column padded to its widest cell, two spaces apart and two in from the margin; no trailing spaces. */
export function textTable(header: readonly string[], rows: Rows): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: readonly string[]) =>
    `  ${cells.map((cell, i) => cell.padEnd(widths[i])).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)];
}
