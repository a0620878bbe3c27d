// Text -> the terms a full-text attribute indexes and a query matches, as the attribute's settings say: tokenize
// (word_v* or pre_tokenized_array), lowercase unless case-sensitive, ASCII-fold if asked, drop tokens longer than
// max_token_length bytes, drop the language's stop words, stem with the language's Snowball stemmer.
//
// Stemmers are Snowball's (snowball-stemmers; Greek from @orama/stemmers), stop-word lists @orama/stopwords'; ASCII
// folding from fold-to-ascii (Lucene's ASCIIFoldingFilter); emoji and ideographs from Unicode
// properties of the regular-expression engine.

import { stemmer as greekStem } from '@orama/stemmers/greek';
import { stopwords as arabicStop } from '@orama/stopwords/arabic';
import { stopwords as danishStop } from '@orama/stopwords/danish';
import { stopwords as dutchStop } from '@orama/stopwords/dutch';
import { stopwords as englishStop } from '@orama/stopwords/english';
import { stopwords as finnishStop } from '@orama/stopwords/finnish';
import { stopwords as frenchStop } from '@orama/stopwords/french';
import { stopwords as germanStop } from '@orama/stopwords/german';
import { stopwords as greekStop } from '@orama/stopwords/greek';
import { stopwords as hungarianStop } from '@orama/stopwords/hungarian';
import { stopwords as italianStop } from '@orama/stopwords/italian';
import { stopwords as norwegianStop } from '@orama/stopwords/norwegian';
import { stopwords as portugueseStop } from '@orama/stopwords/portuguese';
import { stopwords as romanianStop } from '@orama/stopwords/romanian';
import { stopwords as russianStop } from '@orama/stopwords/russian';
import { stopwords as spanishStop } from '@orama/stopwords/spanish';
import { stopwords as swedishStop } from '@orama/stopwords/swedish';
import { stopwords as tamilStop } from '@orama/stopwords/tamil';
import { stopwords as turkishStop } from '@orama/stopwords/turkish';
import foldToAscii from 'fold-to-ascii';
import snowballStemmers from 'snowball-stemmers';
import type { FullTextLanguage, FullTextTokenizer } from '../../lib/turbopuffer-wire';
import type { StoredValue } from '../wire/values';
import type { FtsConfig } from './config';

/** Snowball stemmers: snowball-stemmers has every language but Greek, which @orama/stemmers' Snowball port supplies. */
function snowball(language: Exclude<FullTextLanguage, 'greek'>): (word: string) => string {
  const stemmer = snowballStemmers.newStemmer(language);
  return (word) => stemmer.stem(word);
}

const STEMMERS: Record<FullTextLanguage, (word: string) => string> = {
  arabic: snowball('arabic'),
  danish: snowball('danish'),
  dutch: snowball('dutch'),
  english: snowball('english'),
  finnish: snowball('finnish'),
  french: snowball('french'),
  german: snowball('german'),
  greek: greekStem,
  hungarian: snowball('hungarian'),
  italian: snowball('italian'),
  norwegian: snowball('norwegian'),
  portuguese: snowball('portuguese'),
  romanian: snowball('romanian'),
  russian: snowball('russian'),
  spanish: snowball('spanish'),
  swedish: snowball('swedish'),
  tamil: snowball('tamil'),
  turkish: snowball('turkish'),
};

const STOPWORD_LISTS: Record<FullTextLanguage, readonly string[]> = {
  arabic: arabicStop,
  danish: danishStop,
  dutch: dutchStop,
  english: englishStop,
  finnish: finnishStop,
  french: frenchStop,
  german: germanStop,
  greek: greekStop,
  hungarian: hungarianStop,
  italian: italianStop,
  norwegian: norwegianStop,
  portuguese: portugueseStop,
  romanian: romanianStop,
  russian: russianStop,
  spanish: spanishStop,
  swedish: swedishStop,
  tamil: tamilStop,
  turkish: turkishStop,
};

const stopwordSets = new Map<FullTextLanguage, ReadonlySet<string>>();

function stopwordsOf(language: FullTextLanguage): ReadonlySet<string> {
  let set = stopwordSets.get(language);
  if (!set) {
    set = new Set(STOPWORD_LISTS[language].map((w) => w.toLowerCase()));
    stopwordSets.set(language, set);
  }
  return set;
}

// The tokenizers as the full-text guide describes them. word_v2: ideographs one token each, runs of other
// alphanumeric codepoints, emoji sequences that form one glyph; word_v1: ideographs are alphanumeric (they join a
// run); word_v0: word_v1 without emoji. word_v3 and word_v4 are not described in the public documentation; the
// emulator tokenizes them as word_v2. Built with `new RegExp` because the `v` flag (set subtraction, emoji
// sequences) is newer than the TypeScript target.
const WORD_PATTERNS: Record<Exclude<FullTextTokenizer, 'pre_tokenized_array'>, string> = {
  word_v0: '[\\p{Alphabetic}\\p{N}]+',
  word_v1: '\\p{RGI_Emoji}|[\\p{Alphabetic}\\p{N}]+',
  word_v2: '\\p{RGI_Emoji}|\\p{Ideographic}|[[\\p{Alphabetic}\\p{N}]--\\p{Ideographic}]+',
  word_v3: '\\p{RGI_Emoji}|\\p{Ideographic}|[[\\p{Alphabetic}\\p{N}]--\\p{Ideographic}]+',
  word_v4: '\\p{RGI_Emoji}|\\p{Ideographic}|[[\\p{Alphabetic}\\p{N}]--\\p{Ideographic}]+',
};
const wordPatterns = new Map<string, RegExp>();

function wordPattern(tokenizer: Exclude<FullTextTokenizer, 'pre_tokenized_array'>): RegExp {
  let re = wordPatterns.get(tokenizer);
  if (!re) {
    re = new RegExp(WORD_PATTERNS[tokenizer], 'gv');
    wordPatterns.set(tokenizer, re);
  }
  return re;
}

/** The raw tokens of one string, before normalization. */
export function tokenize(text: string, tokenizer: FullTextTokenizer): string[] {
  if (tokenizer === 'pre_tokenized_array') return [text];
  return text.match(wordPattern(tokenizer)) ?? [];
}

/** One raw token -> its term, or null when the settings drop it (too long, a stop word). */
function normalize(token: string, config: FtsConfig, stopwords: ReadonlySet<string> | null): string | null {
  let term = config.caseSensitive ? token : token.toLowerCase();
  if (config.asciiFolding) term = foldToAscii.foldMaintaining(term);
  if (Buffer.byteLength(term) > config.maxTokenLength) return null;
  if (stopwords?.has(config.caseSensitive ? term.toLowerCase() : term)) return null;
  if (config.stemming) term = STEMMERS[config.language](term);
  return term;
}

/** The analysis pipeline of one attribute's settings. */
export class Analyzer {
  private readonly stopwords: ReadonlySet<string> | null;

  constructor(readonly config: FtsConfig) {
    // A pre-tokenized array is the client's own tokenization: its tokens are taken as they are.
    this.stopwords =
      config.removeStopwords && config.tokenizer !== 'pre_tokenized_array'
        ? stopwordsOf(config.language)
        : null;
  }

  get preTokenized(): boolean {
    return this.config.tokenizer === 'pre_tokenized_array';
  }

  /** A term of one raw token, or null when dropped. */
  term(token: string): string | null {
    if (this.preTokenized) return token;
    return normalize(token, this.config, this.stopwords);
  }

  /** The terms of one string, in order. */
  terms(text: string): string[] {
    const out: string[] = [];
    for (const token of tokenize(text, this.config.tokenizer)) {
      const term = this.term(token);
      if (term !== null) out.push(term);
    }
    return out;
  }

  /** The terms of a stored value: a string, or a string array (each element in turn); anything else has none. */
  valueTerms(value: StoredValue): string[] {
    if (typeof value === 'string') return this.preTokenized ? [value] : this.terms(value);
    if (!Array.isArray(value)) return [];
    const out: string[] = [];
    for (const item of value) {
      if (typeof item !== 'string') continue;
      if (this.preTokenized) out.push(item);
      else for (const term of this.terms(item)) out.push(term);
    }
    return out;
  }

  /**
   * A query's input -> its terms, and with `lastAsPrefix` the last token kept apart as a literal prefix (lowercased
   * and folded as terms are, never stemmed or dropped as a stop word: it is a word still being typed).
   */
  query(
    input: string | readonly string[],
    lastAsPrefix: boolean,
  ): { terms: string[]; prefix: string | null } {
    const tokens =
      typeof input === 'string'
        ? tokenize(input, this.config.tokenizer)
        : this.preTokenized
          ? [...input]
          : input.flatMap((text) => tokenize(text, this.config.tokenizer));
    let prefix: string | null = null;
    if (lastAsPrefix && tokens.length > 0) {
      const last = tokens.pop() as string;
      prefix = this.preTokenized ? last : this.config.caseSensitive ? last : last.toLowerCase();
      if (this.config.asciiFolding && !this.preTokenized) prefix = foldToAscii.foldMaintaining(prefix);
    }
    const terms: string[] = [];
    for (const token of tokens) {
      const term = this.term(token);
      if (term !== null) terms.push(term);
    }
    return { terms, prefix };
  }
}

const analyzers = new WeakMap<FtsConfig, Analyzer>();

/** The analyzer of a settings object (one per object: settings are immutable once parsed). */
export function analyzerFor(config: FtsConfig): Analyzer {
  let analyzer = analyzers.get(config);
  if (!analyzer) {
    analyzer = new Analyzer(config);
    analyzers.set(config, analyzer);
  }
  return analyzer;
}
