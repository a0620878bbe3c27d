// Runs k6 scripts written by others (k6's own examples/ folder is the obvious set: check out grafana/k6 and pass its
// examples/ directory) through `bench run`, one iteration of one VU each as a quick try, and prints each script's exit
// code beside k6's name for it and the first error it logged (benchmarks/k6-scripts-report.ts). That is how the runner
// README's "Tried on k6's examples" figures are made; the scripts themselves stay out of the repository.
// Each script runs inside a network namespace of its own with only loopback up (unshare -n), so scripts that call
// public hosts fail to resolve them, as k6 does offline, and no load leaves the machine; each run is killed at
// TRY_TIMEOUT seconds (90) and at most TRY_MAX_SCRIPTS (500) scripts run.
// Usage: make try-k6-scripts K6_SCRIPTS=<dir> [TRY_TIMEOUT=90] [TRY_MAX_SCRIPTS=500]
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intKnob, KnobError, readKnobs } from './bench-knobs';
import { renderReport, type ScriptRun } from './k6-scripts-report';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bench = join(root, 'bin', 'bench.js');

const { dir, timeoutSeconds, maxScripts } = readKnobs(() => {
  const given = process.env.K6_SCRIPTS ?? process.argv[2];
  if (!given)
    throw new KnobError(
      "K6_SCRIPTS: expected a directory of k6 scripts (e.g. a checkout of grafana/k6's examples/), got nothing",
    );
  const dir = resolve(given);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {}
  if (!isDir)
    throw new KnobError(`K6_SCRIPTS: expected a directory of k6 scripts, got "${given}" (not a directory)`);
  return { dir, timeoutSeconds: intKnob('TRY_TIMEOUT', 90), maxScripts: intKnob('TRY_MAX_SCRIPTS', 500) };
});

/** Every .js, .mjs and .ts file under `dir` (node_modules left out), sorted so two runs list them alike. */
function scripts(from: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const path = join(from, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) found.push(...scripts(path));
    } else if (/\.(m?js|ts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found.sort();
}

// `ip link set lo up` inside: a fresh network namespace has loopback down, and some scripts call localhost.
const LOOPBACK_ONLY = [
  'unshare',
  '--net',
  '--map-root-user',
  '--',
  'sh',
  '-c',
  'ip link set lo up && exec "$@"',
  'sh',
];

function run(script: string): Promise<ScriptRun> {
  const started = performance.now();
  const argv = [
    ...LOOPBACK_ONLY,
    process.execPath,
    bench,
    'run',
    '-q',
    '--vus',
    '1',
    '--iterations',
    '1',
    script,
  ];
  return new Promise((done) => {
    // Run from the script's folder: examples open() files beside them by relative path.
    // A process group of its own, so the time limit also kills what the script started (k6/browser's Chromium).
    const child = spawn(argv[0], argv.slice(1), {
      cwd: dirname(script),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutSeconds * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({
        script: relative(dir, script),
        exitCode: killed ? null : code,
        seconds: (performance.now() - started) / 1000,
        output,
      });
    });
  });
}

const all = scripts(dir);
if (all.length > maxScripts) {
  process.stderr.write(
    `K6_SCRIPTS: ${all.length} scripts under ${dir}, more than TRY_MAX_SCRIPTS=${maxScripts}; raise it or pass a smaller folder\n`,
  );
  process.exit(2);
}
const runs: ScriptRun[] = [];
for (const script of all) {
  const result = await run(script);
  process.stderr.write(`${result.exitCode ?? 'killed'} ${result.script}\n`);
  runs.push(result);
}
process.stdout.write(
  renderReport(runs, `make try-k6-scripts K6_SCRIPTS=${process.env.K6_SCRIPTS ?? process.argv[2]}`),
);
