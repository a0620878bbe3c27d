// Each experiment's manual (docs/experiments/<name>.md, "## 2. What you get") names its result JSON by its top-level
// keys ("stable shape: `experiment, namespace, ...`"): the list is the one the result builders produce, in their
// order (then setup_data, which the file adds), so a key added to the JSON (status, status_reason and series were,
// unlisted) reaches the manual too.
import { describe, expect, it } from 'vitest';
import { buildResult } from '../../lib/backlog/results/json';
import {
  fixtureConfig as backlogConfig,
  fixtureRun as backlogRun,
  fixtureSummary as backlogSummary,
} from '../../lib/backlog/results/testdata/summary-fixture';
import { buildFilterCostResult } from '../../lib/filter-cost/results/json';
import {
  fixtureConfig,
  fixturePlan,
  fixtureRunInfo,
  fixtureSummary,
} from '../../lib/filter-cost/results/testdata/fixture';
import { resultFile } from '../../lib/results/handle-summary';
import { manualSection } from '../manuals';

/** The top-level names of the first "stable shape: `...`" list in `section`, nested parts ({...}, [...]) left out. */
function documentedKeys(section: string): string[] {
  const start = section.indexOf('stable shape: `');
  expect(start, 'a "stable shape: `...`" list').toBeGreaterThanOrEqual(0);
  const open = section.indexOf('`', start) + 1;
  const list = section.slice(open, section.indexOf('`', open)).replace(/\s+/g, ' ');
  const keys: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of `${list},`) {
    if (ch === '{' || ch === '[') depth++;
    if (ch === '}' || ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      const name = current.replace(/[[{].*$/, '').trim();
      if (name !== '' && name !== '...') keys.push(name);
      current = '';
    } else current += ch;
  }
  return keys;
}

describe("the manuals' result JSON shapes", () => {
  it('experiment 1: exactly the keys buildResult writes', () => {
    const result = buildResult(backlogSummary(), backlogConfig, backlogRun);
    expect(documentedKeys(manualSection('backlog', '2. What you get'))).toEqual(
      Object.keys(resultFile(result, {})),
    );
  });

  it('experiment 2: exactly the keys buildFilterCostResult writes', () => {
    const result = buildFilterCostResult(fixtureSummary(), fixtureConfig, fixturePlan, fixtureRunInfo());
    expect(documentedKeys(manualSection('filter-cost', '2. What you get'))).toEqual(
      Object.keys(resultFile(result, {})),
    );
  });
});
