// Helpers for the experiments' script-level tests (tests/backlog, tests/filter-cost): read a bundle's imports and
// exports, and run a bundled k6 script with knobs and nothing else in its environment (no real key, no network).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { envFlags } from '../cli/experiments/env-flags';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** The modules a bundle may import to run unchanged on Grafana k6 and k6-operator. */
export const K6_BUILTINS = ['k6', 'k6/http', 'k6/metrics', 'k6/execution', 'k6/encoding'];

export function readBundle(name: string): string {
  return readFileSync(`${root}/build/${name}`, 'utf8');
}

/** The specifiers of the bundle's top-level `import ... from '...'` statements. */
export function bundleImports(bundle: string): string[] {
  return [...bundle.matchAll(/^\s*import\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
}

/** The names the bundle's `export { ... }` statement exports (after any `as`), sorted. */
export function bundleExports(bundle: string): string[] {
  const exported = /^export\s*\{([^}]*)\}/m.exec(bundle)?.[1] ?? '';
  return exported
    .split(',')
    .map((s) =>
      s
        .trim()
        .split(/\s+as\s+/)
        .pop(),
    )
    .filter((name): name is string => name !== undefined)
    .sort();
}

/** `bench run --quiet build/<name> -e K=V...` with only PATH inherited; the exit code and all output. */
export function runScript(
  name: string,
  env: Record<string, string>,
): { code: number | null; output: string } {
  const res = spawnSync(
    process.execPath,
    ['bin/bench.js', 'run', '--quiet', `build/${name}`, ...envFlags(env)],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '' },
    },
  );
  return { code: res.status, output: `${res.stdout}${res.stderr}` };
}

/** A made-up API key: refusals must never print it. */
export const FAKE_KEY = 'tpuf_refusaltestkeyrefusaltestkey00';

/** The real service as a target (FAKE_KEY and a region), without TPUF_BENCH_CONFIRM_COST. */
export const REAL_SERVICE_ENV = { TURBOPUFFER_API_KEY: FAKE_KEY, TURBOPUFFER_REGION: 'gcp-us-central1' };

/** Runs the script and expects it refused in init: `message` in its output and k6's init-error exit code 107. */
export function expectRefusedInInit(name: string, env: Record<string, string>, message: string): string {
  const { code, output } = runScript(name, env);
  expect(output).toContain(message);
  expect(code).toBe(107);
  return output;
}
