// The bundle pipeline: every scenario becomes an ESM k6 script whose only imports are k6 modules.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function importSpecifiers(source: string): string[] {
  const specs: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm))
    specs.push(m[1]);
  for (const m of source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) specs.push(m[1]);
  return specs;
}

describe('build/hello.js', () => {
  const bundle = readFileSync(`${root}/build/hello.js`, 'utf8');

  it('is an ES module with a default export', () => {
    expect(bundle).toMatch(/^export\s*\{[^}]*\bas default\b/m);
    expect(bundle).not.toMatch(/\bmodule\.exports\b|\brequire\(/);
  });

  it('imports only k6 and k6/* modules', () => {
    const specs = importSpecifiers(bundle);
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) expect(spec).toMatch(/^k6(\/.+)?$/);
  });

  it('carries an inline source map pointing at the TypeScript source', () => {
    const match = /sourceMappingURL=data:application\/json;base64,(\S+)/.exec(bundle);
    expect(match).not.toBeNull();
    const map = JSON.parse(Buffer.from(match?.[1] ?? '', 'base64').toString('utf8')) as { sources: string[] };
    expect(map.sources.some((s) => s.endsWith('scenarios/hello.ts'))).toBe(true);
  });
});

describe('provenance', () => {
  it('stamps every experiment bundle with the commit that built it and whether the tree was dirty', () => {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    for (const name of ['backlog.js', 'filter-cost.js']) {
      const bundle = readFileSync(`${root}/build/${name}`, 'utf8');
      const stamp =
        /var define_BENCH_BUILD_default = \{ commit: "([0-9a-f]{12})", dirty: (true|false), built_at: "([^"]+)" \}/.exec(
          bundle,
        );
      expect(stamp?.[1], name).toBe(head);
      expect(Number.isNaN(Date.parse(stamp?.[3] ?? ''))).toBe(false);
    }
  });
});

describe('dist/', () => {
  it('holds no chunk of an earlier build: every hashed file is imported by another file of the build', () => {
    const dist = `${root}/dist`;
    const scripts = readdirSync(dist).filter((f) => f.endsWith('.js'));
    const imported = new Set<string>();
    for (const f of scripts)
      for (const m of readFileSync(`${dist}/${f}`, 'utf8').matchAll(
        /(?:from|import\()\s*["']\.\/([^"']+\.js)["']/g,
      ))
        imported.add(m[1]);
    const hashed = scripts.filter((f) => /-[A-Z0-9]{8}\.js$/.test(f));
    expect(hashed.length).toBeGreaterThan(5);
    expect(hashed.filter((f) => !imported.has(f))).toEqual([]);
    const maps = readdirSync(dist).filter((f) => f.endsWith('.js.map'));
    expect(maps.filter((m) => !scripts.includes(m.slice(0, -'.map'.length)))).toEqual([]);
  });
});
