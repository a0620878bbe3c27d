// kill -9 at random points under concurrent writers, with `bench emulator --data-dir` as users run it (dist/bench.js,
// built by the global setup). Each round: WRITERS clients upsert and delete whole batches, the process is killed at a
// random moment, and the restarted emulator must hold every acknowledged batch whole, no acknowledged delete undone,
// and any batch whose answer the kill swallowed whole or absent, never part of it. Seeded: CRASH_SEED=n reruns one.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../emulator/vector/random';
import {
  type LaunchedEmulator,
  type ListeningEmulator,
  launchEmulatorProcess,
  listening,
} from './emulator-process';

const ROUNDS = 3;
const WRITERS = 4;
/** Each round is killed once its writers have this many more acknowledgements (progress, not time: the machine is shared)... */
const KILL_AFTER_ACKS: [number, number] = [5, 40];
/** ...plus up to this many ms, so the kill lands anywhere inside a request; or after ROUND_CAP_MS at the latest. */
const KILL_JITTER_MS = 15;
const ROUND_CAP_MS = 4000;
/** A name with a dot and "deleted" in it: such namespaces once vanished on restart. */
const NS = 'crash.deleted-1';
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

const procs: ChildProcess[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'bench-crash-'));
afterAll(() => {
  for (const proc of procs) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The group commit on, short: a write is fsynced locally, then waits for its commit before it is acknowledged, so a
 * kill can land between the two; the service's 1 s interval would only make each round slower.
 */
const COMMIT = ['--commit-interval', '20ms', '--object-put-latency', '5ms'];

function launch(extra: string[] = []): LaunchedEmulator {
  const launched = launchEmulatorProcess(['--port', '0', '--data-dir', dataDir, ...COMMIT, ...extra]);
  procs.push(launched.proc);
  return launched;
}

function start(extra: string[] = []): Promise<ListeningEmulator> {
  return listening(launch(extra), 20_000, ` (seed ${SEED})`);
}

/** What the clients know about each batch: acknowledged, or sent and its answer lost to the kill. */
interface Ledger {
  /** Answers with 200 so far. */
  acks: number;
  rows: Map<number, number>;
  written: Set<number>;
  writeInDoubt: Set<number>;
  deleted: Set<number>;
  deleteInDoubt: Set<number>;
}

async function post(url: string, body: unknown): Promise<number | null> {
  try {
    const response = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return null; // the process died under the request
  }
}

/** One writer until the emulator dies: upserts of whole batches, now and then the delete of an earlier one. */
async function writer(
  url: string,
  id: number,
  round: number,
  ledger: Ledger,
  rand: () => number,
  dead: () => boolean,
) {
  for (let k = 0; !dead() && k < 10_000; k++) {
    const mine = [...ledger.written].filter((b) => Math.floor(b / 1e6) === id && !ledger.deleted.has(b));
    if (mine.length > 0 && rand() < 0.15) {
      const batch = mine[Math.floor(rand() * mine.length)];
      const ids = Array.from({ length: ledger.rows.get(batch) as number }, (_, i) => batch * 1000 + i);
      ledger.deleteInDoubt.add(batch);
      const status = await post(`${url}/v2/namespaces/${NS}`, { deletes: ids });
      if (status === 200) {
        ledger.acks++;
        ledger.deleteInDoubt.delete(batch);
        ledger.deleted.add(batch);
      } else if (status !== null) throw new Error(`delete of batch ${batch} answered ${status}`);
      continue;
    }
    const batch = id * 1e6 + round * 1e4 + k;
    const n = 20 + Math.floor(rand() * 180);
    const ids = Array.from({ length: n }, (_, i) => batch * 1000 + i);
    ledger.rows.set(batch, n);
    ledger.writeInDoubt.add(batch);
    const status = await post(`${url}/v2/namespaces/${NS}`, {
      upsert_columns: { id: ids, vector: ids.map((_, i) => [i, k % 7]), batch: ids.map(() => batch) },
      distance_metric: 'euclidean_squared',
    });
    if (status === 200) {
      ledger.acks++;
      ledger.writeInDoubt.delete(batch);
      ledger.written.add(batch);
    } else if (status !== null) throw new Error(`write of batch ${batch} answered ${status}`);
  }
}

/** Rows per batch as the emulator holds them (strong read: the whole log). */
async function stored(url: string): Promise<Map<number, number>> {
  const response = await fetch(`${url}/v2/namespaces/${NS}/query`, {
    method: 'POST',
    body: JSON.stringify({ aggregate_by: { n: ['Count'] }, group_by: ['batch'], top_k: 10_000 }),
  });
  if (response.status === 404) return new Map();
  const body = (await response.json()) as { aggregation_groups: { batch: number; n: number }[] };
  return new Map(body.aggregation_groups.map((g) => [g.batch, g.n]));
}

function check(ledger: Ledger, now: Map<number, number>): string[] {
  const wrong: string[] = [];
  for (const [batch, n] of now) {
    const expected = ledger.rows.get(batch);
    if (expected === undefined) wrong.push(`batch ${batch} was never sent`);
    else if (n !== expected)
      wrong.push(`batch ${batch} holds ${n} of its ${expected} rows (a partial batch)`);
    else if (ledger.deleted.has(batch)) wrong.push(`batch ${batch} was deleted (acknowledged) but is back`);
  }
  for (const batch of ledger.written)
    if (!ledger.deleted.has(batch) && !ledger.deleteInDoubt.has(batch) && !now.has(batch))
      wrong.push(`batch ${batch} was acknowledged but is missing`);
  return wrong;
}

describe('--data-dir under kill -9', () => {
  it(`keeps every acknowledged batch whole across ${ROUNDS} kills at random moments (seed ${SEED})`, async () => {
    const rand = seededRandom(SEED);
    const ledger: Ledger = {
      acks: 0,
      rows: new Map(),
      written: new Set(),
      writeInDoubt: new Set(),
      deleted: new Set(),
      deleteInDoubt: new Set(),
    };
    let emulator = await start();
    let torn = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let dead = false;
      const writers = Array.from({ length: WRITERS }, (_, w) =>
        writer(emulator.url, w + 1, round, ledger, seededRandom(SEED + round * 100 + w), () => dead),
      );
      const target =
        ledger.acks + KILL_AFTER_ACKS[0] + Math.floor(rand() * (KILL_AFTER_ACKS[1] - KILL_AFTER_ACKS[0]));
      for (const until = Date.now() + ROUND_CAP_MS; ledger.acks < target && Date.now() < until; )
        await new Promise((resolve) => setTimeout(resolve, 1));
      await new Promise((resolve) => setTimeout(resolve, rand() * KILL_JITTER_MS));
      emulator.proc.kill('SIGKILL');
      await emulator.exited;
      dead = true;
      await Promise.all(writers);

      emulator = await start();
      torn += (emulator.stderr().match(/cut a torn last record/g) ?? []).length;
      const now = await stored(emulator.url);
      expect(check(ledger, now), `round ${round}, seed ${SEED}`).toEqual([]);
      // What the kill left in doubt is settled now: it is in the log or it is not.
      for (const batch of ledger.writeInDoubt) if (now.has(batch)) ledger.written.add(batch);
      for (const batch of ledger.deleteInDoubt) if (!now.has(batch)) ledger.deleted.add(batch);
      ledger.writeInDoubt.clear();
      ledger.deleteInDoubt.clear();
    }
    expect(ledger.acks, `seed ${SEED}: the writers got their writes in`).toBeGreaterThanOrEqual(
      ROUNDS * KILL_AFTER_ACKS[0],
    );
    emulator.proc.kill('SIGTERM');
    expect((await emulator.exited).code).toBe(0);

    // The CLI's face of damage: one changed byte in the middle of the segment refuses to start (exit 1, nothing on
    // stdout, the file and byte and the way out on stderr); --truncate-damaged-log then starts with what came before.
    const segment = join(dataDir, 'namespaces', `ns-${NS}`, 'wal-000000000001.log');
    const bytes = readFileSync(segment);
    bytes[Math.floor(bytes.length / 2)] ^= 0x01;
    writeFileSync(segment, bytes);
    const refused = launch();
    expect((await refused.exited).code).toBe(1);
    expect(refused.out.join('')).toBe('');
    expect(refused.err.join('')).toMatch(
      new RegExp(
        `cannot start: the data directory .* holds damage[^]*${segment} at byte \\d+ \\(record \\d+\\)[^]*--truncate-damaged-log`,
      ),
    );
    expect(readFileSync(segment).equals(bytes)).toBe(true);
    emulator = await start(['--truncate-damaged-log']);
    expect(emulator.stderr()).toMatch(/--truncate-damaged-log cut \d+ bytes/);
    emulator.proc.kill('SIGTERM');
    await emulator.exited;
    process.stdout.write(
      `crash suite (seed ${SEED}): ${ROUNDS} kills, ${ledger.rows.size} batches sent, ${ledger.acks} acknowledged ` +
        `(${ledger.written.size} batches written, ${ledger.deleted.size} of them deleted again), ${torn} torn tails cut\n`,
    );
  });
});
