// The report of a result (a smoke run's, trimmed and with fixed times, testdata/result.json) as Markdown and console
// text, against golden files: the visibility table first, then recall, latency, write acknowledgements and the
// documented behaviour. UPDATE_GOLDEN=1 rewrites them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentedClaims } from './claims';
import { renderFreshnessMarkdown, renderFreshnessText } from './render';
import type { FreshnessResult } from './shape';

const dir = join(import.meta.dirname, 'testdata');
const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as FreshnessResult;

function golden(name: string, text: string): void {
  const path = join(dir, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, text);
  expect(text).toBe(readFileSync(path, 'utf8'));
}

describe('the freshness report', () => {
  it('renders the Markdown report', () => {
    golden('result.md.golden', renderFreshnessMarkdown(result));
  });

  it('renders the console summary', () => {
    golden('result.txt.golden', renderFreshnessText(result, ['<results>/x.md', '<results>/x.json']));
  });

  it('sets each documented claim against the run', () => {
    expect(documentedClaims(result).map((c) => c.verdict)).toEqual([
      'holds',
      'cannot show locally',
      'holds',
      'holds',
      'cannot show locally',
      'holds',
    ]);
  });

  it('says a claim does not hold when a strong read missed a probe', () => {
    const missed = structuredClone(result);
    const row = missed.visibility.find((v) => v.band === 'above_tail' && v.consistency === 'strong');
    if (!row) throw new Error('fixture lacks the row');
    row.first_read.seen -= 1;
    row.first_read.missing += 1;
    expect(documentedClaims(missed)[0]).toMatchObject({ verdict: 'does not hold' });
  });
});
