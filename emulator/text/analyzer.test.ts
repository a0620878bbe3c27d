// Each full-text option's effect on the terms of a text, a stored value and a query.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import { Analyzer, tokenize } from './analyzer';
import {
  DEFAULT_FTS,
  describeFtsConfig,
  type FtsConfig,
  LANGUAGES,
  parseFtsConfig,
  sameAnalysis,
} from './config';
import { matchesTokens, type TextQuery } from './match';

const analyzer = (options: Partial<FtsConfig> = {}) => new Analyzer({ ...DEFAULT_FTS, ...options });

describe('tokenizers', () => {
  const text = "Hello, wörld! 東京タワー 42x 👍🏽 can't 3.14 👨‍👩‍👧";
  it('word_v2 (and the undescribed word_v3, word_v4): alphanumeric runs, one token per ideograph, emoji glyphs', () => {
    const expected = ['Hello', 'wörld', '東', '京', 'タワー', '42x', '👍🏽', 'can', 't', '3', '14', '👨‍👩‍👧'];
    for (const tokenizer of ['word_v2', 'word_v3', 'word_v4'] as const)
      expect(tokenize(text, tokenizer)).toEqual(expected);
  });
  it('word_v1: ideographs join the run they are in', () => {
    expect(tokenize(text, 'word_v1')).toEqual([
      'Hello',
      'wörld',
      '東京タワー',
      '42x',
      '👍🏽',
      'can',
      't',
      '3',
      '14',
      '👨‍👩‍👧',
    ]);
  });
  it('word_v0: as word_v1 without emoji', () => {
    expect(tokenize(text, 'word_v0')).toEqual(['Hello', 'wörld', '東京タワー', '42x', 'can', 't', '3', '14']);
  });
  it('pre_tokenized_array: each element is one token, untouched', () => {
    const pre = analyzer({ tokenizer: 'pre_tokenized_array' });
    expect(pre.valueTerms(['The', 'Lazy dog', 'the'])).toEqual(['The', 'Lazy dog', 'the']);
    expect(pre.query(['Lazy dog', 'x'], false)).toEqual({ terms: ['Lazy dog', 'x'], prefix: null });
  });
});

describe('normalization', () => {
  it('lowercases unless case_sensitive', () => {
    expect(analyzer().terms('Quick BROWN Fox')).toEqual(['quick', 'brown', 'fox']);
    expect(analyzer({ caseSensitive: true }).terms('Quick BROWN Fox')).toEqual(['Quick', 'BROWN', 'Fox']);
  });
  it('folds to ASCII only with ascii_folding', () => {
    expect(analyzer().terms('Crème brûlée Æsir straße')).toEqual(['crème', 'brûlée', 'æsir', 'straße']);
    expect(analyzer({ asciiFolding: true }).terms('Crème brûlée Æsir straße')).toEqual([
      'creme',
      'brulee',
      'aesir',
      'strasse',
    ]);
  });
  it('drops tokens longer than max_token_length bytes', () => {
    expect(analyzer({ maxTokenLength: 5 }).terms('tiny enormous héllo')).toEqual(['tiny']); // héllo is 6 bytes
    expect(analyzer().terms(`${'a'.repeat(39)} ${'b'.repeat(40)}`)).toEqual(['a'.repeat(39)]);
  });
  it('removes the language stop words unless remove_stopwords is false', () => {
    expect(analyzer().terms('the walrus and the sea')).toEqual(['walrus', 'sea']);
    expect(analyzer({ removeStopwords: false }).terms('the walrus and the sea')).toEqual([
      'the',
      'walrus',
      'and',
      'the',
      'sea',
    ]);
    expect(analyzer({ language: 'german' }).terms('der Walross und das Meer')).toEqual(['walross', 'meer']);
    // Case-sensitive attributes still drop stop words whatever their case.
    expect(analyzer({ caseSensitive: true }).terms('The Walrus')).toEqual(['Walrus']);
  });
  it('stems with the language Snowball stemmer only with stemming', () => {
    expect(analyzer().terms('walruses jumping')).toEqual(['walruses', 'jumping']);
    expect(analyzer({ stemming: true }).terms('walruses jumping generously ice')).toEqual([
      'walrus',
      'jump',
      'generous',
      'ice',
    ]);
    expect(analyzer({ stemming: true, language: 'french' }).terms('continuellement')).toEqual(['continuel']);
    expect(
      analyzer({ stemming: true, language: 'greek', removeStopwords: false }).terms('καθαρότητα'),
    ).toHaveLength(1);
    for (const language of LANGUAGES)
      expect(
        analyzer({ stemming: true, language, removeStopwords: false }).terms('zzz'),
        language,
      ).toHaveLength(1);
  });
  it('a query keeps its last token as a prefix: lowercased and folded, never stemmed or dropped', () => {
    const stemmed = analyzer({ stemming: true, asciiFolding: true });
    expect(stemmed.query('The walruses Crè', true)).toEqual({ terms: ['walrus'], prefix: 'cre' });
    expect(stemmed.query('the', true)).toEqual({ terms: [], prefix: 'the' });
    expect(stemmed.query('walruses the', false)).toEqual({ terms: ['walrus'], prefix: null });
    expect(stemmed.query(['big walruses', 'sea'], false)).toEqual({
      terms: ['big', 'walrus', 'sea'],
      prefix: null,
    });
  });
  it('a string array value is the terms of each element in turn; other values have none', () => {
    expect(analyzer().valueTerms(['the walrus', 'the sea'])).toEqual(['walrus', 'sea']);
    expect(analyzer().valueTerms(5)).toEqual([]);
  });
});

describe('token matching', () => {
  const doc = ['walrus', 'marine', 'mammal', 'long', 'tusk'];
  const q = (terms: string[], prefix: string | null = null): TextQuery => ({
    config: DEFAULT_FTS,
    terms,
    prefix,
  });
  it.each([
    ['all', q(['tusk', 'walrus']), true],
    ['all', q(['tusk', 'seal']), false],
    ['all', q(['walrus'], 'mam'), true],
    ['all', q(['walrus'], 'sea'), false],
    ['any', q(['seal', 'tusk']), true],
    ['any', q(['seal'], 'lo'), true],
    ['any', q(['seal']), false],
    ['sequence', q(['marine', 'mammal']), true],
    ['sequence', q(['mammal', 'marine']), false],
    ['sequence', q(['long'], 'tu'), true],
    ['sequence', q(['long'], 'wa'), false],
    ['all', q([]), false],
    ['any', q([]), false],
  ] as const)('%s of %j -> %s', (mode, query, expected) => {
    expect(matchesTokens(doc, query, mode)).toBe(expected);
  });
});

describe('settings', () => {
  const refused = (raw: unknown, array = false) => {
    try {
      parseFtsConfig(raw, 'f', array);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      return (error as Error).message;
    }
    throw new Error('expected a 400');
  };
  it('true is the defaults; false and null are off; the echo spells every option', () => {
    expect(parseFtsConfig(true, 'f', false)).toEqual(DEFAULT_FTS);
    expect(parseFtsConfig(false, 'f', false)).toBeNull();
    expect(parseFtsConfig(null, 'f', false)).toBeNull();
    expect(describeFtsConfig(DEFAULT_FTS)).toEqual({
      k1: 1.2,
      b: 0.75,
      language: 'english',
      stemming: false,
      max_token_length: 39,
      remove_stopwords: true,
      ascii_folding: false,
      case_sensitive: false,
      tokenizer: 'word_v4',
    });
    expect(describeFtsConfig({ ...DEFAULT_FTS, indexPrefixes: true }).index_prefixes).toBe(true);
  });
  it('refuses what the SDK types do not allow, naming the option', () => {
    expect(refused('yes')).toMatch(/^f: expected true, false or an object/);
    expect(refused({ language: 'latin' })).toMatch(/^f\.language: unknown language "latin"/);
    expect(refused({ tokenizer: 'pre_tokenized_array' })).toMatch(
      /^f\.tokenizer: pre_tokenized_array needs a \[\]string/,
    );
    expect(parseFtsConfig({ tokenizer: 'pre_tokenized_array' }, 'f', true)?.tokenizer).toBe(
      'pre_tokenized_array',
    );
    expect(refused({ b: -0.1 })).toMatch(/^f\.b: expected a number from 0 to 1/);
    expect(refused({ max_token_length: 2.5 })).toMatch(/^f\.max_token_length/);
    expect(refused({ ascii_folding: 'no' })).toMatch(/^f\.ascii_folding: expected true or false/);
  });
  it('k1 and b do not change the terms: an index keeps serving', () => {
    expect(sameAnalysis(DEFAULT_FTS, { ...DEFAULT_FTS, k1: 2, b: 0 })).toBe(true);
    expect(sameAnalysis(DEFAULT_FTS, { ...DEFAULT_FTS, stemming: true })).toBe(false);
  });
});
