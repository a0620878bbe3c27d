// Runs one history: a `bench emulator --data-dir` process (dist/bench.js), CLIENTS concurrent clients taking the
// seeded operations of history.ts in turn, and kill -9 plus a restart on the same data directory at seeded points.
// Every operation is recorded with its call and return time (microseconds, this process's monotonic clock) and its
// answer; a write whose answer a kill swallowed is recorded as unknown, returning when the process was seen dead
// (it took effect before the kill or never). Reads a kill swallowed tell nothing and are left out.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { seededRandom } from '../../emulator/vector/random';
import { scanSegment } from '../../emulator/wal/scan';
import { type LaunchedEmulator, launchEmulatorProcess, listening } from '../emulator/emulator-process';
import {
  type History,
  type Op,
  type Planned,
  planOperation,
  type Read,
  type Row,
  wireRead,
  wireWrite,
} from './history';

const NS = 'consistency';
/** A request that takes longer than this is a hang: the suite fails rather than wait for it. */
const REQUEST_TIMEOUT_MS = 20_000;
/** How long the end of a history waits for indexing to bring the backlog within the eventual tail. */
const SETTLE_MS = 5_000;

export interface HistoryOptions {
  /** Everything a history sends follows from this seed (CONSISTENCY_SEED reruns it). */
  seed: number;
  index: number;
  clients: number;
  ops: number;
  /** kill -9s in this history (0 for none). */
  kills: number;
  dataDir: string;
}

export interface HistoryStats {
  writesAcknowledged: number;
  writesUnknown: number;
  /** Of those, how many the log held after the restart. */
  writesInDoubtApplied: number;
  writesRefused429: number;
  strongReads: number;
  eventualReads: number;
  eventualCovered: number;
  readsLost: number;
  reads429: number;
  kills: number;
  tornTailsCut: number;
  profile: Profile;
}

/** The emulator's settings for one history, drawn from its seed. */
interface Profile {
  latency: 'service' | 'none';
  indexThroughput: string;
  eventualTailLimit: number;
}

const now = () => Math.round(performance.now() * 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)];
}

/**
 * Indexing paced below the clients' write rate and a small eventual tail make eventual reads lag (a prefix of the
 * history); unlimited indexing and the default tail make them current. The latency model's group commit is short.
 */
function drawProfile(rand: () => number): Profile {
  return {
    latency: rand() < 0.3 ? 'none' : 'service',
    indexThroughput: pick(rand, ['unlimited', '16KiB', '4KiB']),
    eventualTailLimit: pick(rand, [128 * 2 ** 20, 256, 32]),
  };
}

function flags(profile: Profile, dataDir: string): string[] {
  const latency =
    profile.latency === 'none'
      ? ['--latency-model', 'none']
      : [
          ...['--commit-interval', '10ms', '--object-put-latency', '3ms', '--strong-read-latency', '1ms'],
          ...['--object-get-latency', '1ms', '--cold-round-trips', '1'],
        ];
  return [
    ...['--port', '0', '--data-dir', dataDir],
    ...[
      '--index-throughput',
      profile.indexThroughput,
      '--eventual-tail-limit',
      String(profile.eventualTailLimit),
    ],
    ...latency,
  ];
}

/** One emulator process: its URL, and once killed, when it was seen dead. */
interface Incarnation {
  launched: LaunchedEmulator;
  url: string;
  killed: boolean;
  deadAt: number | null;
  stderr(): string;
}

/** Every record body in a namespace's log, as text, in log order. */
async function loggedBodies(dir: string): Promise<string[]> {
  const bodies: string[] = [];
  for (const file of (await readdir(dir)).filter((f) => /^wal-\d+\.log$/.test(f)).sort())
    await scanSegment(join(dir, file), (record) => {
      bodies.push(record.body.toString());
    });
  return bodies;
}

class Failure extends Error {
  override name = 'HistoryFailure';
}

export async function runHistory(
  options: HistoryOptions,
): Promise<{ history: History; stats: HistoryStats }> {
  const rand = seededRandom(options.seed);
  const profile = drawProfile(rand);
  const plan: Planned[] = Array.from({ length: options.ops }, (_, n) => planOperation(rand, n));
  const killPoints = Array.from({ length: options.kills }, () =>
    Math.floor(options.ops * (0.1 + 0.8 * rand())),
  ).sort((a, b) => a - b);
  const jitters = killPoints.map(() => rand() * 15);
  const where = ` (history seed ${options.seed})`;
  const stats: HistoryStats = {
    writesAcknowledged: 0,
    writesUnknown: 0,
    writesInDoubtApplied: 0,
    writesRefused429: 0,
    strongReads: 0,
    eventualReads: 0,
    eventualCovered: 0,
    readsLost: 0,
    reads429: 0,
    kills: 0,
    tornTailsCut: 0,
    profile,
  };
  const ops: Op[] = [];
  const inDoubt: { op: Op }[] = [];
  const kills: number[] = [];
  const launched: LaunchedEmulator[] = [];

  const start = async (): Promise<Incarnation> => {
    const l = launchEmulatorProcess(flags(profile, options.dataDir));
    launched.push(l);
    const inc: Incarnation = {
      launched: l,
      url: '',
      killed: false,
      deadAt: null,
      stderr: () => l.err.join(''),
    };
    // Registered first, so every request that failed with the process sees deadAt set.
    void l.exited.then(() => {
      inc.deadAt = now();
    });
    inc.url = (await listening(l, 30_000, where)).url;
    return inc;
  };

  async function request(
    inc: Incarnation,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> } | null> {
    try {
      const response = await fetch(`${inc.url}${path}`, {
        method,
        // Writes are logged as sent: the log read after a kill is matched against these exact bytes.
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
    } catch (error) {
      if ((error as Error).name === 'TimeoutError')
        throw new Failure(`${method} ${path} got no answer in ${REQUEST_TIMEOUT_MS} ms${where}`);
      if (!inc.killed) throw new Failure(`${method} ${path} failed: ${(error as Error).message}${where}`);
      await inc.launched.exited;
      return null; // the kill took the answer
    }
  }

  const rowsOf = (body: Record<string, unknown>): Row[] =>
    (body.rows as Record<string, unknown>[]).map((r) => ({
      id: r.id as number,
      v: r.v as number,
      g: r.g as number,
      p: (r.p as number | null | undefined) ?? null,
    }));

  async function read(inc: Incarnation, client: number, r: Read, note?: string): Promise<void> {
    let call = now();
    let covered = false;
    if (r.consistency === 'eventual') {
      const meta = await request(inc, 'GET', `/v1/namespaces/${NS}/metadata`);
      if (meta === null) {
        stats.readsLost++;
        return;
      }
      if (meta.status !== 200)
        throw new Failure(`metadata answered ${meta.status}: ${JSON.stringify(meta.body)}${where}`);
      const index = meta.body.index as { unindexed_bytes?: number };
      // The eventual view then reaches at least every write committed before this metadata read began.
      covered = (index.unindexed_bytes ?? 0) <= profile.eventualTailLimit;
      if (!covered) call = now();
    }
    const reply = await request(inc, 'POST', `/v2/namespaces/${NS}/query`, wireRead(r));
    const ret = now();
    if (reply === null) {
      stats.readsLost++;
      return;
    }
    if (reply.status === 429) {
      stats.reads429++;
      return;
    }
    if (reply.status !== 200)
      throw new Failure(
        `query ${JSON.stringify(wireRead(r))} answered ${reply.status}: ${JSON.stringify(reply.body)}${where}`,
      );
    if (r.consistency === 'strong') stats.strongReads++;
    else {
      stats.eventualReads++;
      if (covered) stats.eventualCovered++;
    }
    ops.push({
      client,
      call,
      return: ret,
      read: covered ? { ...r, covered } : r,
      rows: rowsOf(reply.body),
      note,
    });
  }

  async function write(
    inc: Incarnation,
    client: number,
    n: number,
    w: NonNullable<Op['write']>,
  ): Promise<void> {
    const call = now();
    const reply = await request(inc, 'POST', `/v2/namespaces/${NS}`, wireWrite(w));
    const ret = now();
    if (reply === null) {
      stats.writesUnknown++;
      // Sent after the process died, it never arrived: the interval still has to end after its call.
      const op: Op = {
        client,
        call,
        return: Math.max(call, inc.deadAt as number),
        unknown: true,
        n,
        write: w,
      };
      ops.push(op);
      inDoubt.push({ op });
      return;
    }
    if (reply.status === 429) {
      stats.writesRefused429++; // refused writes change nothing: no operation to check
      return;
    }
    if (reply.status !== 200)
      throw new Failure(
        `write ${JSON.stringify(wireWrite(w))} answered ${reply.status}: ${JSON.stringify(reply.body)}${where}`,
      );
    stats.writesAcknowledged++;
    const ids = (key: string) => (reply.body[key] as number[] | undefined) ?? [];
    ops.push({
      client,
      call,
      return: ret,
      n,
      write: w,
      affected: { upserted: ids('upserted_ids'), patched: ids('patched_ids'), deleted: ids('deleted_ids') },
    });
  }

  let current = await start();
  try {
    const created = await request(current, 'POST', `/v2/namespaces/${NS}`, {
      create_namespace: true,
      schema: { id: 'uint', v: 'int', g: 'int', p: 'int' },
    });
    if (created?.status !== 200)
      throw new Failure(`creating the namespace answered ${created?.status}${where}`);

    let next = 0;
    let completed = 0;
    /** Resolved while the process is up; a restart replaces it until the new process has been read back. */
    let up: Promise<void> = Promise.resolve();
    const client = async (c: number) => {
      for (let n = next++; n < plan.length; n = next++) {
        await up;
        const planned = plan[n];
        if ('write' in planned) await write(current, c, n, planned.write);
        else await read(current, c, planned.read);
        completed++;
      }
    };
    const monitor = async () => {
      for (const [k, point] of killPoints.entries()) {
        while (completed < point && next < plan.length) await sleep(1);
        if (next >= plan.length && completed >= plan.length) return;
        await sleep(jitters[k]);
        let release = () => {};
        up = new Promise((resolve) => {
          release = resolve;
        });
        const dead = current;
        dead.killed = true;
        dead.launched.proc.kill('SIGKILL');
        await dead.launched.exited;
        kills.push(dead.deadAt as number);
        stats.kills++;
        current = await start();
        stats.tornTailsCut += (current.stderr().match(/cut a torn last record/g) ?? []).length;
        // Everything acknowledged before the kill must be there, and each write in doubt whole or absent.
        await read(current, options.clients, { consistency: 'strong' }, `after restart ${k + 1}`);
        release();
      }
    };
    const failures: unknown[] = [];
    await Promise.all(
      [...Array.from({ length: options.clients }, (_, c) => client(c)), monitor()].map((p) =>
        p.catch((error) => {
          failures.push(error);
          next = plan.length; // stop the other clients
        }),
      ),
    );
    if (failures.length > 0) throw failures[0];

    // Quiet: the latest state for a strong read, and for an eventual read once indexing covers the backlog.
    await read(current, options.clients, { consistency: 'strong' }, 'final');
    for (const until = Date.now() + SETTLE_MS; Date.now() < until; await sleep(20)) {
      const meta = await request(current, 'GET', `/v1/namespaces/${NS}/metadata`);
      const index = meta?.body.index as { unindexed_bytes?: number } | undefined;
      if ((index?.unindexed_bytes ?? 0) <= profile.eventualTailLimit) break;
    }
    await read(current, options.clients, { consistency: 'eventual' }, 'final, settled');
    current.launched.proc.kill('SIGTERM');
    const exit = await current.launched.exited;
    if (exit.code !== 0)
      throw new Failure(`SIGTERM: the emulator exited ${exit.code ?? exit.signal}${where}`);
  } finally {
    for (const l of launched)
      if (l.proc.exitCode === null && l.proc.signalCode === null) l.proc.kill('SIGKILL');
    await Promise.all(launched.map((l) => l.exited));
  }
  // The committed history: the log holds each request body exactly as sent, and every body is unique.
  const byBody = new Map<string, number>();
  plan.forEach((p, n) => {
    if ('write' in p) byBody.set(JSON.stringify(wireWrite(p.write)), n);
  });
  const logOrder: number[] = [];
  const bodies = await loggedBodies(join(options.dataDir, 'namespaces', `ns-${NS}`));
  for (const [k, body] of bodies.entries()) {
    const n = byBody.get(body);
    if (n !== undefined) logOrder.push(n);
    else if (k > 0)
      throw new Failure(`log record ${k + 1} is no write of this history: ${body.slice(0, 200)}${where}`);
  }
  const logged = new Set(logOrder);
  for (const { op } of inDoubt) {
    if (logged.has(op.n as number)) {
      op.applied = true;
      stats.writesInDoubtApplied++;
    } else ops.splice(ops.indexOf(op), 1); // it never took effect: nothing to check
  }
  ops.sort((a, b) => a.call - b.call);
  return {
    history: {
      seed: options.seed,
      index: options.index,
      clients: options.clients + 1,
      kills,
      meta: { profile, ops: options.ops },
      ops,
      logOrder,
    },
    stats,
  };
}
