// bench run --instances and bench merge through the CLI: one merged result from segmented processes.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killProcessTree } from '../../cli/experiments/with-emulator';
import { bench, fixture, points, ROOT, readNdjson, scratch } from './harness';

const tmp = scratch();
afterAll(() => tmp.cleanup());

const idsOf = (file: string) =>
  points(readNdjson(file), 'fixture_ids').map((p) => `${p.data.tags?.scenario}:${p.data.tags?.it}`);

describe('bench run --instances', () => {
  it('runs setup and teardown once, hands setup data to every instance and gates on the merged samples', async () => {
    const out = join(tmp.dir, 'merged.ndjson');
    const r = await bench([
      'run',
      '--instances',
      '3',
      '--out',
      `json=${out}`,
      fixture('instances-merged.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'execution: local, 3 instances (bench --instances 3: the segments of 0,1/3,2/3,1',
    );
    expect(r.stdout).toContain("✓ 'count==29' count=29");
    expect(r.stderr.match(/setup ran/g)).toHaveLength(1);
    expect(r.stderr.match(/teardown ran with 42/g)).toHaveLength(1);
    const ids = idsOf(out);
    expect(ids).toHaveLength(29);
    expect(new Set(ids).size).toBe(29);
  });

  it('refuses --execution-segment beside --instances before running anything', async () => {
    const r = await bench([
      'run',
      '--instances',
      '2',
      '--execution-segment',
      '1/2',
      fixture('instances-merged.js'),
    ]);
    expect(r.code).toBe(255);
    expect(r.stderr).toContain('--execution-segment cannot be combined with --instances');
  });
});

describe('bench run --instances, stopped early', () => {
  const started: ChildProcess[] = [];
  afterAll(() => {
    for (const child of started) killProcessTree(child);
  });
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const until = async (what: string, ok: () => boolean, limitMs: number) => {
    const end = Date.now() + limitMs;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`not within ${limitMs / 1000} s: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  /** A coordinator of 2 instances of a minute-long test, once setup() ran (every instance is ready), and their pids. */
  const startLong = async () => {
    const coordinator = spawn(
      process.execPath,
      [join(ROOT, 'dist/bench.js'), 'run', '-q', '--instances', '2', fixture('instances-long.js')],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    started.push(coordinator);
    let output = '';
    coordinator.stdout?.on('data', (d) => {
      output += d;
    });
    coordinator.stderr?.on('data', (d) => {
      output += d;
    });
    const exit = new Promise<number | null>((resolve) => coordinator.once('exit', (code) => resolve(code)));
    await until('setup() ran', () => output.includes('setup ran'), 30_000);
    const instances = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(coordinator.pid)], {
      encoding: 'utf8',
    })
      .split('\n')
      // Its other child is esbuild's service.
      .filter((line) => line.includes('dist/bench.js run'))
      .map((line) => Number.parseInt(line, 10));
    expect(instances, output).toHaveLength(2);
    return { coordinator, instances, exit, output: () => output };
  };

  it('stops every instance on SIGTERM and exits 105 after them', { timeout: 60_000 }, async () => {
    const run = await startLong();
    run.coordinator.kill('SIGTERM');
    const code = await run.exit;
    expect(code, run.output()).toBe(105);
    expect(run.instances.filter(alive), run.output()).toEqual([]);
  });

  it('leaves no instance behind when the coordinator is killed outright', { timeout: 60_000 }, async () => {
    const run = await startLong();
    run.coordinator.kill('SIGKILL');
    await run.exit;
    // Their stdin closed: each stops its scenario (iterations of 0.1 s) and exits.
    await until('the instances exited', () => run.instances.every((pid) => !alive(pid)), 20_000);
  });
});

describe('bench merge', () => {
  it('evaluates the thresholds of the streams of separately run segments on their merged samples', async () => {
    const segments = ['0:1/3', '1/3:2/3', '2/3:1'];
    const files = segments.map((_, i) => join(tmp.dir, `part-${i}.ndjson`));
    const runs = await Promise.all(
      segments.map((segment, i) =>
        bench([
          'run',
          '-q',
          '--summary-mode',
          'disabled',
          '--execution-segment',
          segment,
          '--execution-segment-sequence',
          '0,1/3,2/3,1',
          '--out',
          `json=${files[i]}`,
          fixture('instances-merged.js'),
        ]),
      ),
    );
    // Each instance alone has a third of the count: its own thresholds fail (k6-operator's per-instance verdict).
    for (const r of runs) expect(r.code, r.stderr).toBe(99);
    const merged = join(tmp.dir, 'merged-after.ndjson');
    const r = await bench(['merge', '--out', `json=${merged}`, ...files]);
    expect(r.code, r.stderr).toBe(0);
    // Thresholds come from the streams' Metric lines; counts are the union's.
    expect(r.stdout).toContain("✓ 'count==29' count=29");
    expect(new Set(idsOf(merged)).size).toBe(29);
  });

  it("hands --setup-data to the script's handleSummary: a result's setup_data member or a plain JSON value", async () => {
    const stream = join(tmp.dir, 'whole.ndjson');
    const run = await bench([
      'run',
      '-q',
      '--summary-mode',
      'disabled',
      '--out',
      `json=${stream}`,
      fixture('instances-merged.js'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const result = join(tmp.dir, 'result.json');
    writeFileSync(result, JSON.stringify({ experiment: 'backlog', setup_data: { token: 42, ns: 'a' } }));
    const plain = join(tmp.dir, 'plain.json');
    writeFileSync(plain, JSON.stringify({ token: 7 }));
    const script = fixture('merge-setup-data.js');

    const fromResult = await bench([
      'merge',
      '--script',
      script,
      '--setup-data',
      result,
      '-e',
      'MERGE_KNOB=x=1',
      stream,
    ]);
    expect(fromResult.code, fromResult.stderr).toBe(0);
    expect(fromResult.stdout).toBe('setup_data={"token":42,"ns":"a"} iterations=29 knob=x=1\n');
    const fromPlain = await bench([
      'merge',
      '--script',
      script,
      `--setup-data=${plain}`,
      '--env=MERGE_KNOB=2',
      stream,
    ]);
    expect(fromPlain.stdout).toBe('setup_data={"token":7} iterations=29 knob=2\n');
    // Without it, as before: handleSummary gets no setup data.
    const without = await bench(['merge', '--script', script, stream]);
    expect(without.stdout).toBe('setup_data=undefined iterations=29 knob=undefined\n');

    const noScript = await bench(['merge', '--setup-data', plain, stream]);
    expect(noScript.code).toBe(255);
    expect(noScript.stderr).toContain(
      '--setup-data is for the handleSummary() of --script: give the script too',
    );
    writeFileSync(plain, '{"token": ');
    const broken = await bench(['merge', '--script', script, '--setup-data', plain, stream]);
    expect(broken.code).toBe(255);
    expect(broken.stderr).toContain(`--setup-data ${plain} is not JSON`);
  });
});
