// build/filter-cost.js must run unchanged on Grafana k6: an ES module importing only built-in k6 modules, exporting
// the functions its scenarios name, reading __ENV in one place.
import { describe, expect, it } from 'vitest';
import { bundleExports, bundleImports, K6_BUILTINS, readBundle } from '../experiment-script';

describe('build/filter-cost.js', () => {
  const bundle = readBundle('filter-cost.js');

  it('imports only built-in k6 modules', () => {
    const specs = bundleImports(bundle);
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) expect(K6_BUILTINS).toContain(spec);
    expect(bundle).not.toMatch(/https:\/\/jslib\.k6\.io|k6\/x\//);
  });

  it('exports options, setup, teardown, handleSummary and the query function', () => {
    expect(bundleExports(bundle)).toEqual(['handleSummary', 'options', 'query', 'setup', 'teardown']);
  });

  it('reads __ENV in one place only (the scenario entry)', () => {
    expect(bundle.match(/__ENV/g)?.length).toBe(1);
  });
});
