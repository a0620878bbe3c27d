// Versions recorded in the result: bench's own (bundled from package.json), the commit that built the bundle and
// whether the tree was dirty (stamped by scripts/build.ts), and the runner's and Node's when the launcher passes them
// (a k6 script cannot ask its runtime; unknown under Grafana k6 unless passed with -e).
import { version } from '../package.json';
import { EnvReader, type EnvRecord } from './env';

/** What scripts/build.ts stamps into every bundle (esbuild `define`); absent when the code was bundled otherwise. */
declare const __BENCH_BUILD__: { commit: string; dirty: boolean; built_at: string } | undefined;

export interface Versions {
  bench: string;
  /** Commit of the tree that built the bundle (12 hex digits), or `unknown`. */
  commit: string;
  /** True when tracked files differed from that commit; null when unknown. */
  dirty: boolean | null;
  /** When the bundle was built (ISO 8601), or null. */
  built_at: string | null;
  /** `bench version`'s first line, or `unknown`. */
  runner: string;
  /** Node.js of the launcher (the runner's own), or `unknown`. */
  node: string;
}

/** The bundle's own provenance (the emulator reports it too). */
export function buildProvenance(): Pick<Versions, 'bench' | 'commit' | 'dirty' | 'built_at'> {
  const build = typeof __BENCH_BUILD__ === 'undefined' ? undefined : __BENCH_BUILD__;
  return {
    bench: version,
    commit: build?.commit ?? 'unknown',
    dirty: build?.dirty ?? null,
    built_at: build?.built_at ?? null,
  };
}

export function readVersions(env: EnvRecord): Versions {
  const e = new EnvReader(env);
  return {
    ...buildProvenance(),
    runner: e.string('BENCH_RUNNER_VERSION', 'unknown'),
    node: e.string('BENCH_NODE_VERSION', 'unknown'),
  };
}

/** "abc123def456", "abc123def456 + uncommitted changes" or "unknown". */
export function describeCommit(v: Pick<Versions, 'commit' | 'dirty'>): string {
  return v.dirty ? `${v.commit} + uncommitted changes` : v.commit;
}

/** The warning a result's first line carries when the bundle was built from a dirty tree; null otherwise. */
export function dirtyTreeWarning(v: Pick<Versions, 'commit' | 'dirty'>): string | null {
  return v.dirty
    ? `Built from a dirty tree: commit ${v.commit} plus uncommitted changes, so this run cannot be reproduced from the commit alone.`
    : null;
}
