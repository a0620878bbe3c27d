// build/backlog.js must run unchanged on Grafana k6 and k6-operator: an ES module importing only built-in k6
// modules (no k6/x/*, no remote jslib), exporting the functions its scenarios name.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const K6_BUILTINS = ['k6', 'k6/http', 'k6/metrics', 'k6/execution', 'k6/encoding'];

describe('build/backlog.js', () => {
  const bundle = readFileSync(`${root}/build/backlog.js`, 'utf8');

  it('imports only built-in k6 modules', () => {
    const specs = [...bundle.matchAll(/^\s*import\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) expect(K6_BUILTINS).toContain(spec);
    expect(bundle).not.toMatch(/https:\/\/jslib\.k6\.io|k6\/x\//);
  });

  it('exports options, setup, teardown, handleSummary and the scenario functions', () => {
    const exported = /^export\s*\{([^}]*)\}/m.exec(bundle)?.[1] ?? '';
    const names = exported.split(',').map((s) =>
      s
        .trim()
        .split(/\s+as\s+/)
        .pop(),
    );
    expect(names.sort()).toEqual(['handleSummary', 'options', 'query', 'setup', 'teardown', 'write']);
  });

  it('reads __ENV in one place only (the scenario entry)', () => {
    expect(bundle.match(/__ENV/g)?.length).toBe(1);
  });
});
