// Token filters on one document's terms: ContainsAllTokens, ContainsAnyToken and ContainsTokenSequence, each with
// an optional last-token prefix. Pure; every filter path (tail scans, index candidates, conditional writes) ends here.
import type { FtsConfig } from './config';

export type TokenMode = 'all' | 'any' | 'sequence';

/** A query's text analyzed with the attribute's own settings. */
export interface TextQuery {
  config: FtsConfig;
  /** Terms in query order (stop words dropped, stemmed as the attribute is). */
  terms: string[];
  /** `last_as_prefix`: the last token, matched as the start of a term. */
  prefix: string | null;
}

/** Whether a document with `docTerms` passes the token filter. A query left with no terms matches nothing. */
export function matchesTokens(docTerms: readonly string[], query: TextQuery, mode: TokenMode): boolean {
  const { terms, prefix } = query;
  if (terms.length === 0 && prefix === null) return false;
  if (mode === 'sequence') return containsSequence(docTerms, terms, prefix);
  const present = new Set(docTerms);
  const prefixHit = prefix !== null && docTerms.some((t) => t.startsWith(prefix));
  if (mode === 'any') return prefixHit || terms.some((t) => present.has(t));
  return (prefix === null || prefixHit) && terms.every((t) => present.has(t));
}

function containsSequence(
  docTerms: readonly string[],
  terms: readonly string[],
  prefix: string | null,
): boolean {
  const length = terms.length + (prefix === null ? 0 : 1);
  for (let start = 0; start + length <= docTerms.length; start++) {
    let ok = true;
    for (let i = 0; i < terms.length && ok; i++) ok = docTerms[start + i] === terms[i];
    if (ok && prefix !== null) ok = docTerms[start + terms.length].startsWith(prefix);
    if (ok) return true;
  }
  return false;
}
