// A full-text attribute's settings (schema `full_text_search`: true, false or an object), parsed from the wire with
// the service's defaults filled in, and spelt out again for metadata and GET .../schema.
//
// The fields are the Python SDK 3.1 `FullTextSearchConfig`'s; `index_prefixes` is not in that type but the vendor's
// benchmark tool sends it (it speeds up prefix queries on the service; the emulator answers them the same either way).
import type { FullTextLanguage, FullTextSearchConfig, FullTextTokenizer } from '../../lib/turbopuffer-wire';
import { badRequest } from '../api-error';
import { describeJson, fieldName } from '../wire/json-text';

export const LANGUAGES = [
  'arabic',
  'danish',
  'dutch',
  'english',
  'finnish',
  'french',
  'german',
  'greek',
  'hungarian',
  'italian',
  'norwegian',
  'portuguese',
  'romanian',
  'russian',
  'spanish',
  'swedish',
  'tamil',
  'turkish',
] as const satisfies readonly FullTextLanguage[];

const TOKENIZERS = [
  'pre_tokenized_array',
  'word_v0',
  'word_v1',
  'word_v2',
  'word_v3',
  'word_v4',
] as const satisfies readonly FullTextTokenizer[];

// Every language and tokenizer of the wire type is listed above: one added to lib/turbopuffer-wire.ts fails to
// compile here until the emulator knows it.
const _everyLanguage: Record<Exclude<FullTextLanguage, (typeof LANGUAGES)[number]>, never> = {};
const _everyTokenizer: Record<Exclude<FullTextTokenizer, (typeof TOKENIZERS)[number]>, never> = {};

export interface FtsConfig {
  language: FullTextLanguage;
  stemming: boolean;
  removeStopwords: boolean;
  caseSensitive: boolean;
  asciiFolding: boolean;
  tokenizer: FullTextTokenizer;
  k1: number;
  b: number;
  maxTokenLength: number;
  indexPrefixes: boolean;
}

/** The SDK's documented defaults. */
export const DEFAULT_FTS: Readonly<FtsConfig> = {
  language: 'english',
  stemming: false,
  removeStopwords: true,
  caseSensitive: false,
  asciiFolding: false,
  tokenizer: 'word_v4',
  k1: 1.2,
  b: 0.75,
  maxTokenLength: 39,
  indexPrefixes: false,
};

const KEYS: ReadonlySet<string> = new Set<keyof FullTextSearchConfig>([
  'language',
  'stemming',
  'remove_stopwords',
  'case_sensitive',
  'ascii_folding',
  'tokenizer',
  'k1',
  'b',
  'max_token_length',
  'index_prefixes',
]);

function flag(
  raw: Record<string, unknown>,
  key: keyof FullTextSearchConfig,
  field: string,
  fallback: boolean,
) {
  const value = raw[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean')
    throw badRequest(`${field}.${key}: expected true or false, got ${describeJson(value)}`);
  return value;
}

function number(raw: Record<string, unknown>, key: 'k1' | 'b', field: string, fallback: number): number {
  const value = raw[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (key === 'b' && value > 1))
    throw badRequest(
      `${field}.${key}: expected a number ${key === 'b' ? 'from 0 to 1' : 'of at least 0'}, got ${describeJson(value)}`,
    );
  return value;
}

/**
 * `full_text_search` of a schema entry -> its settings, or null when off (false, null). `field` names it in 400s;
 * `arrayType` says whether the attribute is []string (the only type pre_tokenized_array serves).
 */
export function parseFtsConfig(raw: unknown, field: string, arrayType: boolean): FtsConfig | null {
  if (raw === undefined || raw === null || raw === false) return null;
  if (raw === true) return { ...DEFAULT_FTS };
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest(`${field}: expected true, false or an object of options, got ${describeJson(raw)}`);
  const config = raw as Record<string, unknown>;
  for (const key of Object.keys(config))
    if (!KEYS.has(key))
      throw badRequest(`${field}.${fieldName(key)}: unknown option (it takes ${[...KEYS].join(', ')})`);
  const language = config.language ?? DEFAULT_FTS.language;
  if (!(LANGUAGES as readonly unknown[]).includes(language))
    throw badRequest(
      `${field}.language: unknown language ${describeJson(language)}; use one of ${LANGUAGES.join(', ')}`,
    );
  const tokenizer = config.tokenizer ?? DEFAULT_FTS.tokenizer;
  if (!(TOKENIZERS as readonly unknown[]).includes(tokenizer))
    throw badRequest(
      `${field}.tokenizer: unknown tokenizer ${describeJson(tokenizer)}; use one of ${TOKENIZERS.join(', ')}`,
    );
  if (tokenizer === 'pre_tokenized_array' && !arrayType)
    throw badRequest(`${field}.tokenizer: pre_tokenized_array needs a []string attribute`);
  const maxTokenLength = config.max_token_length ?? DEFAULT_FTS.maxTokenLength;
  if (
    typeof maxTokenLength !== 'number' ||
    !Number.isInteger(maxTokenLength) ||
    maxTokenLength < 1 ||
    maxTokenLength > 254
  )
    throw badRequest(
      `${field}.max_token_length: expected a whole number from 1 to 254, got ${describeJson(maxTokenLength)}`,
    );
  return {
    language: language as FullTextLanguage,
    stemming: flag(config, 'stemming', field, DEFAULT_FTS.stemming),
    removeStopwords: flag(config, 'remove_stopwords', field, DEFAULT_FTS.removeStopwords),
    caseSensitive: flag(config, 'case_sensitive', field, DEFAULT_FTS.caseSensitive),
    asciiFolding: flag(config, 'ascii_folding', field, DEFAULT_FTS.asciiFolding),
    tokenizer: tokenizer as FullTextTokenizer,
    k1: number(config, 'k1', field, DEFAULT_FTS.k1),
    b: number(config, 'b', field, DEFAULT_FTS.b),
    maxTokenLength,
    indexPrefixes: flag(config, 'index_prefixes', field, DEFAULT_FTS.indexPrefixes),
  };
}

/** The settings as metadata and GET .../schema spell them: every option with its value. */
export function describeFtsConfig(config: FtsConfig): FullTextSearchConfig {
  const out: FullTextSearchConfig = {
    k1: config.k1,
    b: config.b,
    language: config.language,
    stemming: config.stemming,
    max_token_length: config.maxTokenLength,
    remove_stopwords: config.removeStopwords,
    ascii_folding: config.asciiFolding,
    case_sensitive: config.caseSensitive,
    tokenizer: config.tokenizer,
  };
  if (config.indexPrefixes) out.index_prefixes = true;
  return out;
}

/** Two settings that turn text into the same terms (an index built with one serves the other; k1 and b only score). */
export function sameAnalysis(a: FtsConfig, b: FtsConfig): boolean {
  return (
    a.language === b.language &&
    a.stemming === b.stemming &&
    a.removeStopwords === b.removeStopwords &&
    a.caseSensitive === b.caseSensitive &&
    a.asciiFolding === b.asciiFolding &&
    a.tokenizer === b.tokenizer &&
    a.maxTokenLength === b.maxTokenLength
  );
}
