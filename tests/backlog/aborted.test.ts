// Ctrl+C during a run (issue 15), and during its setup(): `make backlog-smoke` interrupted by SIGINT a few seconds into its scenarios still
// writes its result, marked aborted with where it stopped, and leaves its thresholds unevaluated; the run exits 105
// as k6 does after a signal, the emulator is stopped, and the result gets its charts and HTML report.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BacklogResult } from '../../lib/backlog/results/json';
import { root } from '../experiment-script';
import { tempDir } from '../temp-dir';

/** Resolves once `pattern` appears in the child's output (stdout and stderr), or rejects after `ms`. */
function waitFor(child: ChildProcess, read: () => string, pattern: RegExp, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${ms} ms:\n${read()}`)), ms);
    const check = () => {
      if (!pattern.test(read())) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
  });
}

/** `make backlog-smoke` into `dir`, sent SIGINT `afterMs` after `pattern` appears in its output. */
async function interruptedSmoke(
  dir: string,
  pattern: RegExp,
  afterMs: number,
): Promise<{ code: number | null; output: string }> {
  let output = '';
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'cli/experiments/run-experiment.ts', 'backlog-smoke', '-e', `RESULTS_DIR=${dir}`],
    { cwd: root, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitFor(child, () => output, pattern, 90_000);
  await new Promise((r) => setTimeout(r, afterMs));
  child.kill('SIGINT');
  const code = await exited;
  return { code, output };
}

describe('make backlog-smoke, interrupted', () => {
  const setupDir = tempDir('bench-aborted-setup-');

  it('in setup(): deletes the namespace it created, writes no result, and exits 105', {
    timeout: 120_000,
  }, async () => {
    const { code, output } = await interruptedSmoke(setupDir, /seeding \d+ rows/, 0);
    expect(code, output).toBe(105);
    const namespace = /namespace (bench-backlog-\S+), seed/.exec(output)?.[1];
    expect(namespace, output).toBeDefined();
    expect(output).toContain(`deleted namespace ${namespace} (setup() did not finish)`);
    expect(output).toMatch(
      /setup\(\) did not finish: setup\(\) was interrupted because the run was told to stop/,
    );
    expect(output).not.toMatch(/[1-9]\d* complete and/);
    expect(readdirSync(setupDir).filter((f) => f.endsWith('.json'))).toEqual([]);
  });

  const dir = tempDir('bench-aborted-');

  it('writes a result marked aborted, with thresholds not evaluated, and exits 105', {
    timeout: 120_000,
  }, async () => {
    // The scenarios have started once the runner's progress reads "running (...)"; let them run a little.
    const { code, output } = await interruptedSmoke(dir, /running \(/, 3000);

    expect(code, output).toBe(105);
    const files = readdirSync(dir);
    const json = files.find((f) => f.endsWith('.json'));
    expect(json, output).toBeDefined();
    const r = JSON.parse(readFileSync(join(dir, json as string), 'utf8')) as BacklogResult;
    expect(r.status).toBe('aborted');
    expect(r.status_reason).toMatch(/^interrupted \d+ (s|min \d+ s) before the scenarios' planned end, /);
    expect(r.thresholds).toEqual({ evaluated: false, passed: null, failed: [] });
    const md = readFileSync(join(dir, (json as string).replace(/\.json$/, '.md')), 'utf8');
    expect(md.split('\n')[0]).toBe(
      `> **Aborted run:** ${r.status_reason}. The figures cover only what ran; the thresholds were not evaluated.`,
    );
    expect(output).toContain(`ABORTED: ${r.status_reason}`);
    expect(output).not.toMatch(/thresholds failed/);
    // The launcher drew the aborted result's report where RESULTS_DIR put it (make's report step used to look
    // in runs/ only).
    const base = (json as string).replace(/\.json$/, '');
    for (const drawn of ['html', 'latency.svg', 'errors.svg', 'cells.svg'])
      expect(readdirSync(dir), output).toContain(`${base}.${drawn}`);
    expect(readFileSync(join(dir, `${base}.md`), 'utf8')).toContain('<!-- bench report: charts');
  });
});
