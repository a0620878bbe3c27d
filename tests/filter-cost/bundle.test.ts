// build/filter-cost.js must run unchanged on Grafana k6: an ES module importing only built-in k6 modules, exporting
// the functions its scenarios name, reading __ENV in one place.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const K6_BUILTINS = ['k6', 'k6/http', 'k6/metrics', 'k6/execution', 'k6/encoding'];

describe('build/filter-cost.js', () => {
  const bundle = readFileSync(`${root}/build/filter-cost.js`, 'utf8');

  it('imports only built-in k6 modules', () => {
    const specs = [...bundle.matchAll(/^\s*import\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) expect(K6_BUILTINS).toContain(spec);
    expect(bundle).not.toMatch(/https:\/\/jslib\.k6\.io|k6\/x\//);
  });

  it('exports options, setup, teardown, handleSummary and the query function', () => {
    const exported = /^export\s*\{([^}]*)\}/m.exec(bundle)?.[1] ?? '';
    const names = exported.split(',').map((s) =>
      s
        .trim()
        .split(/\s+as\s+/)
        .pop(),
    );
    expect(names.sort()).toEqual(['handleSummary', 'options', 'query', 'setup', 'teardown']);
  });

  it('reads __ENV in one place only (the scenario entry)', () => {
    expect(bundle.match(/__ENV/g)?.length).toBe(1);
  });
});
