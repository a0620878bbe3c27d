// The full-text postings: incremental growth, prefix look-ups, and a rebuild only when the terms would change.
import { describe, expect, it } from 'vitest';
import { DEFAULT_FTS } from '../text/config';
import { FtsIndex, termsWithPrefix } from './fts-index';

describe('FtsIndex', () => {
  const column = ['the walrus swims', null, 'walrus walrus ice', 'Iceberg'];
  const source = { attributes: new Map([['text', column]]) };
  it('posts each term with its rows and frequencies, and each row its length, as rows arrive', () => {
    const index = new FtsIndex();
    index.addRows(2, source, [['text', DEFAULT_FTS]]);
    expect(index.postings('text', DEFAULT_FTS)?.rows).toBe(2);
    index.addRows(4, source, [['text', DEFAULT_FTS]]);
    const postings = index.postings('text', DEFAULT_FTS);
    expect(postings?.terms.get('walrus')).toEqual({ rows: [0, 2], tfs: [1, 2] });
    expect(postings?.lengths).toEqual([2, 0, 3, 1]);
    expect(termsWithPrefix(postings as NonNullable<typeof postings>, 'ic')).toEqual(['ice', 'iceberg']);
    expect(index.coveredRows([['text', DEFAULT_FTS]])).toBe(4);
  });
  it('settings that change the terms start over; k1 and b keep the index', () => {
    const index = new FtsIndex();
    index.addRows(4, source, [['text', DEFAULT_FTS]]);
    expect(index.postings('text', { ...DEFAULT_FTS, k1: 2, b: 0.1 })?.rows).toBe(4);
    const stemmed = { ...DEFAULT_FTS, caseSensitive: true };
    expect(index.postings('text', stemmed)).toBeNull();
    expect(index.coveredRows([['text', stemmed]])).toBe(0);
    index.addRows(4, source, [['text', stemmed]]);
    expect(index.postings('text', stemmed)?.terms.has('Iceberg')).toBe(true);
    index.drop('text');
    expect(index.postings('text', stemmed)).toBeNull();
  });
});
