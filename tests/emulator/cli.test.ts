// `bench emulator` as users run it (dist/bench.js, built by the global setup): the base-URL line, flag errors with
// exit 2 before listening, clean shutdown on signals, and durability across kill -9 with --data-dir.
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type LaunchedEmulator,
  type ListeningEmulator,
  launchEmulatorProcess,
  listening,
} from './emulator-process';

const started: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const proc of started.splice(0))
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): LaunchedEmulator {
  const launched = launchEmulatorProcess(args);
  started.push(launched.proc);
  return launched;
}

function start(args: string[] = []): Promise<ListeningEmulator> {
  return listening(run(['--port', '0', ...args]));
}

async function post(url: string, body: unknown) {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response fields.
  return { status: response.status, body: (await response.json()) as any };
}

describe('bench emulator (CLI)', () => {
  it('prints exactly one base-URL line, serves requests, and exits 0 on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const emu = await start();
      expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const write = await post(`${emu.url}/v2/namespaces/cli`, {
        upsert_rows: [{ id: 1, vector: [1, 2] }],
        distance_metric: 'cosine_distance',
      });
      expect(write.status).toBe(200);
      emu.proc.kill(signal);
      expect(await emu.exited).toEqual({ code: 0, signal: null });
      expect(emu.out.join('')).toBe(`${emu.url}\n`);
    }
  });

  it.each([
    [['--latency-model', 'none', '--strong-read-latency', '12ms'], /--strong-read-latency: has no effect/],
    [['--port', 'eighty'], /--port: expected a whole number/],
    [['--backlog-limit', '2 elephants'], /--backlog-limit: invalid size/],
    [['--index-throughput', '0'], /--index-throughput: must be above 0/],
    [['--host', '0.0.0.0'], /not a loopback address/],
    [['--colour'], /Unknown option '--colour'/],
  ])('refuses %j with exit 2 before listening', async (args, message) => {
    const { exited, out, err } = run(args);
    expect((await exited).code).toBe(2);
    expect(err.join('')).toMatch(message);
    expect(out.join('')).toBe('');
  });

  it.runIf(process.platform === 'linux')(
    'reports CPU per thread in /_emulator/stats: the request thread, each engine worker by role, the rest',
    async () => {
      const emu = await start();
      const write = await post(`${emu.url}/v2/namespaces/cpu`, {
        upsert_rows: [{ id: 1, vector: [1, 2] }],
        distance_metric: 'cosine_distance',
      });
      expect(write.status).toBe(200);
      // Workers say their thread ids once they have started: poll briefly rather than assume they have.
      let cpu: Record<string, number> = {};
      for (let i = 0; i < 100 && Object.keys(cpu).length < 6; i++) {
        const stats = (await (await fetch(`${emu.url}/_emulator/stats`)).json()) as {
          thread_cpu_ms: Record<string, number>;
        };
        cpu = stats.thread_cpu_ms;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const scans = Object.keys(cpu).filter((k) => k.startsWith('scan_'));
      expect(scans.length).toBeGreaterThanOrEqual(1);
      expect(Object.keys(cpu).sort()).toEqual(['indexer', 'main', 'other', 'prefault', ...scans].sort());
      for (const ms of Object.values(cpu)) expect(ms).toBeGreaterThanOrEqual(0);
      // Starting the process and serving the write took some CPU on the request thread.
      expect(cpu.main).toBeGreaterThan(0);
      emu.proc.kill('SIGTERM');
      await emu.exited;
    },
  );

  it('never prints the API key', async () => {
    const emu = await start(['--api-key', 'tpuf_hush_hush']);
    const denied = await fetch(`${emu.url}/v1/namespaces`, { headers: { authorization: 'Bearer wrong' } });
    expect(denied.status).toBe(401);
    emu.proc.kill('SIGTERM');
    await emu.exited;
    expect(emu.stderr() + emu.out.join('')).not.toContain('tpuf_hush_hush');
  });

  it('keeps every acknowledged write across kill -9 with --data-dir, and drops a torn last record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-emulator-'));
    dirs.push(dir);
    // A short group commit: 22 writes one after another would take 22 s at the service's 1 s interval.
    const first = await start(['--data-dir', dir, '--commit-interval', '10ms']);
    const acknowledged: number[] = [];
    for (let batch = 0; batch < 20; batch++) {
      const ids = Array.from({ length: 50 }, (_, i) => batch * 50 + i);
      const reply = await post(`${first.url}/v2/namespaces/durable`, {
        upsert_columns: { id: ids, vector: ids.map((i) => [i, 1]), batch: ids.map(() => batch) },
        distance_metric: 'euclidean_squared',
      });
      expect(reply.status).toBe(200);
      acknowledged.push(...ids);
    }
    await post(`${first.url}/v2/namespaces/durable`, { deletes: [0, 1], patch_rows: [{ id: 2, batch: 99 }] });
    first.proc.kill('SIGKILL');
    await first.exited;
    // A crash mid-append leaves a partial frame at the end of the segment: recovery must cut it off.
    const nsDir = join(dir, 'namespaces', 'ns-durable');
    const segment = readdirSync(nsDir).find((f) => f.endsWith('.log')) as string;
    appendFileSync(join(nsDir, segment), Buffer.from([0x54, 0x57, 0x41, 0x4c, 0xff, 0xff]));

    const second = await start(['--data-dir', dir]);
    const count = await post(`${second.url}/v2/namespaces/durable/query`, { aggregate_by: { n: ['Count'] } });
    expect(count.body.aggregations.n).toBe(acknowledged.length - 2);
    const patched = await post(`${second.url}/v2/namespaces/durable/query`, {
      filters: ['id', 'In', [0, 2]],
      include_attributes: ['batch'],
    });
    expect(patched.body.rows).toEqual([{ id: 2, batch: 99 }]);
    const nearest = await post(`${second.url}/v2/namespaces/durable/query`, {
      rank_by: ['vector', 'kNN', [500, 1]],
      top_k: 1,
    });
    expect(nearest.body.rows[0].id).toBe(500);
    // The repaired log takes new writes.
    expect(
      (await post(`${second.url}/v2/namespaces/durable`, { upsert_rows: [{ id: 5000, vector: [0, 0] }] }))
        .status,
    ).toBe(200);
    second.proc.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });
});
