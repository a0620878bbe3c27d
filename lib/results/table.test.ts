import { describe, expect, it } from 'vitest';
import { markdownTable, textTable } from './table';

describe('markdownTable', () => {
  it('writes the header, one separator cell per column and one line per row, unpadded', () => {
    expect(
      markdownTable(
        ['Phase', 'p50'],
        [
          ['Idle', '2ms'],
          ['Indexing', '12.5ms'],
        ],
      ),
    ).toEqual(['| Phase | p50 |', '|---|---|', '| Idle | 2ms |', '| Indexing | 12.5ms |']);
  });

  it('keeps the header and separator of a table without rows', () => {
    expect(markdownTable(['a', 'b', 'c'], [])).toEqual(['| a | b | c |', '|---|---|---|']);
  });
});

describe('textTable', () => {
  it('pads each column to its widest cell, header included, and trims the line end', () => {
    expect(
      textTable(
        ['cell', 'reqs', 'p50'],
        [
          ['ann_only', '50', '2ms'],
          ['ann_range_10', '5', '—'],
        ],
      ),
    ).toEqual(['  cell          reqs  p50', '  ann_only      50    2ms', '  ann_range_10  5     —']);
  });

  it('prints only the header without rows', () => {
    expect(textTable(['phase', 'qps'], [])).toEqual(['  phase  qps']);
  });
});
