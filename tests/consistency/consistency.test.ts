// The history-based consistency suite: CONSISTENCY_HISTORIES histories (20 in `make test`, 1,000 in
// `make consistency`), each CONSISTENCY_CLIENTS clients (8) running CONSISTENCY_OPS operations (200) against one
// `bench emulator --data-dir` process, killed with kill -9 and restarted CONSISTENCY_KILLS times (2) in half of the
// histories; each history checked by the Go checker (porcupine, checker/) against the namespace model. The first
// history that is not linearizable fails the suite with its seed, its minimised history and porcupine's HTML
// (under runs/consistency/). CONSISTENCY_SEED=<history seed> CONSISTENCY_HISTORIES=1 reruns one history's schedule.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../emulator/vector/random';
import { buildChecker, runChecker } from './checker';
import { type HistoryStats, runHistory } from './driver';

const HISTORIES = Number(process.env.CONSISTENCY_HISTORIES ?? 20);
const OPS = Number(process.env.CONSISTENCY_OPS ?? 200);
const CLIENTS = Number(process.env.CONSISTENCY_CLIENTS ?? 8);
const KILLS = Number(process.env.CONSISTENCY_KILLS ?? 2);
const SEED = Number(process.env.CONSISTENCY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const FAILURES = fileURLToPath(new URL('../../runs/consistency/', import.meta.url));

describe('consistency under concurrency and kill -9', () => {
  it(`${HISTORIES} histories of ${OPS} operations by ${CLIENTS} clients are linearizable (seed ${SEED})`, {
    timeout: 60_000 + HISTORIES * 45_000,
  }, async () => {
    buildChecker();
    const work = mkdtempSync(join(tmpdir(), 'bench-consistency-'));
    const totals = {
      ops: 0,
      unknown: 0,
      unknownApplied: 0,
      kills: 0,
      torn: 0,
      acknowledged: 0,
      refused: 0,
      strong: 0,
      eventual: 0,
      covered: 0,
      checkMs: 0,
      porcupineOk: 0,
    };
    const started = Date.now();
    try {
      for (let i = 0; i < HISTORIES; i++) {
        const seed = (SEED + i) % 2 ** 31;
        // Half the histories are killed (which half follows from the seed, so a rerun of one seed repeats it).
        const kills = seededRandom(seed ^ 0x5eed)() < 0.5 || HISTORIES === 1 ? KILLS : 0;
        const dataDir = join(work, `h${i}`);
        mkdirSync(dataDir);
        const { history, stats } = await runHistory({
          seed,
          index: i,
          clients: CLIENTS,
          ops: OPS,
          kills,
          dataDir,
        });
        const file = join(work, `seed-${seed}.json`);
        writeFileSync(file, JSON.stringify(history));
        const verdict = runChecker(file, FAILURES);
        add(totals, stats, verdict.ops, verdict.ms);
        if (verdict.porcupine === 'Ok') totals.porcupineOk++;
        if (process.env.CONSISTENCY_VERBOSE)
          process.stdout.write(
            `history ${i} seed ${seed}: ${JSON.stringify(stats)}; checked in ${verdict.ms} ms\n`,
          );
        if (verdict.result !== 'ok') {
          // The whole history too: the checker's input, to check again after a fix of the checker or the model.
          mkdirSync(FAILURES, { recursive: true });
          copyFileSync(file, join(FAILURES, `seed-${seed}.json`));
          const rerun = `CONSISTENCY_SEED=${seed} CONSISTENCY_HISTORIES=1 npx vitest run tests/consistency/consistency.test.ts`;
          expect.fail(
            `history seed ${seed} (${JSON.stringify(stats.profile)}, ${stats.kills} kills) fails the check ` +
              `(porcupine: ${verdict.porcupine}); minimised to ${verdict.minimisedOps} of ${verdict.ops} operations ` +
              `(${verdict.history}, visualisation ${verdict.html}, whole history ${join(FAILURES, `seed-${seed}.json`)}):\n${verdict.message}\nrerun: ${rerun}`,
          );
        }
        rmSync(dataDir, { recursive: true, force: true });
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    expect(totals.acknowledged, 'the clients got writes in').toBeGreaterThan(HISTORIES * OPS * 0.2);
    process.stdout.write(
      `consistency suite (seed ${SEED}): ${HISTORIES} histories, ${totals.ops} operations checked ` +
        `(${totals.acknowledged} writes acknowledged, ${totals.unknown} in doubt at a kill, of which ${totals.unknownApplied} in the log after it, ${totals.refused} refused ` +
        `with 429; ${totals.strong} strong reads, ${totals.eventual} eventual of which ${totals.covered} covered), ` +
        `${totals.kills} kills, ${totals.torn} torn tails cut, 0 violations; ${Math.round((Date.now() - started) / 1000)} s, ` +
        `checker ${totals.checkMs} ms (porcupine found a linearization in ${totals.porcupineOk}, timed out on the ` +
        `rest, whose log order was one)\n`,
    );
  });
});

function add(totals: Record<string, number>, stats: HistoryStats, ops: number, checkMs: number): void {
  totals.ops += ops;
  totals.unknown += stats.writesUnknown;
  totals.unknownApplied += stats.writesInDoubtApplied;
  totals.kills += stats.kills;
  totals.torn += stats.tornTailsCut;
  totals.acknowledged += stats.writesAcknowledged;
  totals.refused += stats.writesRefused429;
  totals.strong += stats.strongReads;
  totals.eventual += stats.eventualReads;
  totals.covered += stats.eventualCovered;
  totals.checkMs += checkMs;
}
