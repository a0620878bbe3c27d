// bench's runner version and the k6 version whose behaviour it targets (`bench version`, User-Agent).
import pkg from '../package.json' with { type: 'json' };

export const BENCH_VERSION: string = pkg.version;
export const TARGET_K6_VERSION = 'v2.2.0';

/** One line as `k6 version` prints it, naming the runner and the k6 version it targets. */
export function versionLine(): string {
  return `bench v${BENCH_VERSION} (k6-compatible runner, targets k6 ${TARGET_K6_VERSION}; node${process.versions.node}, ${process.platform}/${process.arch})`;
}

export function versionJson(): string {
  return JSON.stringify({
    commit: '',
    go_arch: process.arch,
    go_os: process.platform,
    go_version: `node${process.versions.node}`,
    version: `v${BENCH_VERSION}`,
    k6_version: TARGET_K6_VERSION,
  });
}
