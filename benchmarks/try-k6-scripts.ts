// Runs k6 scripts written by others through `bench run`, one iteration of one VU each as a quick try (TRY_FLAGS, the
// `bench run` flags put before each script, is "--vus 1 --iterations 1"; TRY_FLAGS= runs them as written), and prints each
// script's exit code beside k6's name for it and the first error it logged (benchmarks/k6-scripts-report.ts). Two
// sources, kept out of the repository and passed by path:
//   K6_SCRIPTS=<dir>  every .js, .mjs and .ts file under it (grafana/k6's examples/ folder is the obvious set);
//   K6_DOCS=<dir>     the runnable snippets of the Markdown pages under it (grafana/k6-docs, e.g. its
//                     docs/sources/k6/v2.2.x/javascript-api/): benchmarks/k6-doc-snippets.ts picks them, and they are
//                     written to a temporary folder and run from there.
// That is how docs/runner-measurements.md §5 is made. Each script runs inside a network namespace of its own with only
// loopback up (unshare -n), so scripts that call public hosts fail to resolve them, as k6 does offline, and no load
// leaves the machine; each run is killed at TRY_TIMEOUT seconds (90) and at most TRY_MAX_SCRIPTS (1000) run.
// Usage: make try-k6-scripts K6_SCRIPTS=<dir> | K6_DOCS=<dir> [TRY_FLAGS=...] [TRY_TIMEOUT=90] [TRY_MAX_SCRIPTS=1000]
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intKnob, KnobError, readKnobs } from './bench-knobs';
import { snippetsFromMarkdown } from './k6-doc-snippets';
import { renderReport, type ScriptRun } from './k6-scripts-report';
import { LOOPBACK_ONLY, runBounded } from './loopback-only';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bench = join(root, 'bin', 'bench.js');

const knobs = readKnobs(() => {
  const scripts = process.env.K6_SCRIPTS || undefined;
  const docs = process.env.K6_DOCS || undefined;
  if ((scripts === undefined) === (docs === undefined))
    throw new KnobError(
      "K6_SCRIPTS or K6_DOCS: expected one of them, a directory of k6 scripts (e.g. grafana/k6's examples/) or of " +
        `Markdown pages (e.g. grafana/k6-docs' docs/sources/k6/v2.2.x/javascript-api/), got ${scripts === undefined ? 'neither' : 'both'}`,
    );
  const [name, given] = scripts !== undefined ? ['K6_SCRIPTS', scripts] : ['K6_DOCS', docs as string];
  const dir = resolve(given);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {}
  if (!isDir) throw new KnobError(`${name}: expected a directory, got "${given}" (not a directory)`);
  return {
    source: name === 'K6_SCRIPTS' ? ('scripts' as const) : ('docs' as const),
    command: `make try-k6-scripts ${name}=${given}${process.env.TRY_FLAGS === undefined ? '' : ` TRY_FLAGS="${process.env.TRY_FLAGS}"`}`,
    dir,
    // Split on spaces, as a shell would for flags without quotes; unset means the quick try, empty means none.
    flags: (process.env.TRY_FLAGS ?? '--vus 1 --iterations 1').split(/\s+/).filter((f) => f !== ''),
    timeoutSeconds: intKnob('TRY_TIMEOUT', 90),
    maxScripts: intKnob('TRY_MAX_SCRIPTS', 1000),
  };
});

/** Every file under `from` whose name `wanted` accepts (node_modules and dot folders left out), sorted. */
function files(from: string, wanted: (name: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const path = join(from, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) found.push(...files(path, wanted));
    } else if (wanted(entry.name)) found.push(path);
  }
  return found.sort();
}

/** The scripts to run, and the folder their names are relative to. */
function gather(): { base: string; scripts: string[]; cleanup: () => void } {
  if (knobs.source === 'scripts') {
    const scripts = files(knobs.dir, (name) => /\.(m?js|ts)$/.test(name) && !name.endsWith('.d.ts'));
    return { base: knobs.dir, scripts, cleanup: () => {} };
  }
  const out = mkdtempSync(join(tmpdir(), 'bench-k6-docs-'));
  const scripts: string[] = [];
  for (const page of files(knobs.dir, (name) => name.endsWith('.md'))) {
    for (const snippet of snippetsFromMarkdown(readFileSync(page, 'utf8'), relative(knobs.dir, page))) {
      const path = join(out, snippet.name);
      writeFileSync(path, snippet.code);
      scripts.push(path);
    }
  }
  return { base: out, scripts, cleanup: () => rmSync(out, { recursive: true, force: true }) };
}

async function run(script: string, base: string): Promise<ScriptRun> {
  const argv = [...LOOPBACK_ONLY, process.execPath, bench, 'run', '-q', ...knobs.flags, script];
  // From the script's folder, since examples open() files beside them by relative path.
  const ran = await runBounded(argv, { cwd: dirname(script), timeoutMs: knobs.timeoutSeconds * 1000 });
  return { script: relative(base, script), ...ran };
}

const { base, scripts, cleanup } = gather();
try {
  if (scripts.length > knobs.maxScripts) {
    process.stderr.write(
      `${knobs.command}: ${scripts.length} scripts, more than TRY_MAX_SCRIPTS=${knobs.maxScripts}; raise it or pass a smaller folder\n`,
    );
    process.exitCode = 2;
  } else {
    const runs: ScriptRun[] = [];
    for (const script of scripts) {
      const result = await run(script, base);
      process.stderr.write(`${result.exitCode ?? 'killed'} ${result.script}\n`);
      runs.push(result);
    }
    process.stdout.write(renderReport(runs, knobs.command));
  }
} finally {
  cleanup();
}
