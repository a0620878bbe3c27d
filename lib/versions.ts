// Versions recorded in the result: bench's own (bundled from package.json) and, when the launcher passes them,
// the git commit, the runner's and Node's (a k6 script cannot ask its runtime; unknown under Grafana k6 unless passed with -e).
import { version } from '../package.json';
import { EnvReader, type EnvRecord } from './env';

export interface Versions {
  bench: string;
  /** Short commit, `-dirty` when tracked files differed from it; `unknown` unless the launcher passed it. */
  commit: string;
  /** `bench version`'s first line, or `unknown`. */
  runner: string;
  /** Node.js of the launcher (the runner's own), or `unknown`. */
  node: string;
}

export function readVersions(env: EnvRecord): Versions {
  const e = new EnvReader(env);
  return {
    bench: version,
    commit: e.string('BENCH_GIT_COMMIT', 'unknown'),
    runner: e.string('BENCH_RUNNER_VERSION', 'unknown'),
    node: e.string('BENCH_NODE_VERSION', 'unknown'),
  };
}
