// build/backlog.js must run unchanged on Grafana k6 and k6-operator: an ES module importing only built-in k6
// modules (no k6/x/*, no remote jslib), exporting the functions its scenarios name.
import { describe, expect, it } from 'vitest';
import { bundleExports, bundleImports, K6_BUILTINS, readBundle } from '../experiment-script';

describe('build/backlog.js', () => {
  const bundle = readBundle('backlog.js');

  it('imports only built-in k6 modules', () => {
    const specs = bundleImports(bundle);
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) expect(K6_BUILTINS).toContain(spec);
    expect(bundle).not.toMatch(/https:\/\/jslib\.k6\.io|k6\/x\//);
  });

  it('exports options, setup, teardown, handleSummary and the scenario functions', () => {
    expect(bundleExports(bundle)).toEqual([
      'handleSummary',
      'options',
      'query',
      'recall',
      'setup',
      'teardown',
      'write',
    ]);
  });

  it('reads __ENV in one place only (the scenario entry)', () => {
    expect(bundle.match(/__ENV/g)?.length).toBe(1);
  });
});
