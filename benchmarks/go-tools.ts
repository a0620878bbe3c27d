// The Go programs `make bench-runner` needs, built with this machine's Go into .cache/go-bin/ (kept across
// `make clean`): vegeta, the open-model reference, installed as a pinned Go module, the loopback endpoint, built from
// benchmarks/bench-endpoint/main.go, and the stall probe (benchmarks/stall-probe/main.go). Each is built only when missing or
// out of date.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The vegeta release the figures are measured against. */
export const VEGETA_MODULE = 'github.com/tsenart/vegeta/v12@v12.13.0';

export interface GoTools {
  vegeta: string;
  endpoint: string;
  /** benchmarks/stall-probe/main.go: when this machine's CPUs did not run (BENCH_TIMELINE=1). */
  stallProbe: string;
}

function go(args: string[], env: Record<string, string> = {}): void {
  try {
    execFileSync('go', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
  } catch (error) {
    throw new Error(
      `\`go ${args.join(' ')}\` failed (${(error as Error).message}): make bench-runner needs Go (https://go.dev/doc/install) on PATH`,
    );
  }
}

/** Builds what is missing and returns the binaries' paths. */
export function goTools(root: string): GoTools {
  const bin = join(root, '.cache', 'go-bin');
  mkdirSync(bin, { recursive: true });
  const vegeta = join(bin, 'vegeta');
  // `go install` writes no version a binary would print: a stamp beside it says which module it was built from.
  const stamp = join(bin, 'vegeta.module');
  if (!existsSync(vegeta) || !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== VEGETA_MODULE) {
    console.log(`installing ${VEGETA_MODULE} into ${bin} (go install; once)`);
    go(['install', VEGETA_MODULE], { GOBIN: bin });
    writeFileSync(stamp, `${VEGETA_MODULE}\n`);
  }
  return {
    vegeta,
    endpoint: built(root, bin, 'bench-endpoint'),
    stallProbe: built(root, bin, 'stall-probe'),
  };
}

/** scripts/<name>/main.go built into `bin`, when missing or older than its source. */
function built(root: string, bin: string, name: string): string {
  const source = join(root, 'benchmarks', name, 'main.go');
  const binary = join(bin, name);
  if (!existsSync(binary) || statSync(binary).mtimeMs < statSync(source).mtimeMs) {
    console.log(`building ${binary} from benchmarks/${name}/main.go (go build)`);
    go(['build', '-o', binary, source]);
  }
  return binary;
}
