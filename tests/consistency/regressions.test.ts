// The minimised histories the consistency suite found (regressions/*.json), each kept twice over: the checker must
// still refuse the history as recorded, and the emulator, fed the history's writes in their log order, must no
// longer produce it. The replay drives the index cursor itself (the indexer stopped) through every byte of the log,
// reading eventually at each step: every eventual read must show the state a strong read showed after some write.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../emulator/harness';
import { runChecker } from './checker';
import { type History, wireRead, wireWrite } from './history';

const DIR = fileURLToPath(new URL('./regressions/', import.meta.url));
const FIXTURES = readdirSync(DIR).filter((f) => f.endsWith('.json'));

let emulator: TestEmulator | null = null;
afterEach(async () => {
  await emulator?.close();
  emulator = null;
});

describe.each(FIXTURES)('regression %s', (file) => {
  const history = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as History;

  it('is still refused by the checker as recorded', () => {
    const verdict = runChecker(join(DIR, file));
    expect(verdict.result).toBe('violation');
  });

  it('is not produced by the emulator: an eventual read at any index cursor shows whole writes', async () => {
    const profile = history.meta.profile as { eventualTailLimit: number };
    emulator = await startTestEmulator({ eventualTailLimitBytes: profile.eventualTailLimit });
    const ns = '/v2/namespaces/regression';
    expect(
      (
        await emulator.post(ns, {
          create_namespace: true,
          schema: { id: 'uint', v: 'int', g: 'int', p: 'int' },
        })
      ).status,
    ).toBe(200);
    const namespace = emulator.registry.get('regression');
    if (!namespace) throw new Error('no namespace');
    await emulator.registry.indexerOf(namespace)?.stop();
    const readAll = async (consistency: 'strong' | 'eventual') => {
      const reply = await emulator?.post(`${ns}/query`, wireRead({ consistency }));
      expect(reply?.status).toBe(200);
      return JSON.stringify(reply?.body.rows);
    };
    // The states a strong read sees after each write of the log, in log order: the committed history.
    const states = new Set([await readAll('strong')]);
    const writes = new Map(history.ops.filter((op) => op.write).map((op) => [op.n, op.write]));
    for (const n of history.logOrder ?? []) {
      const write = writes.get(n);
      if (!write) continue;
      expect((await emulator.post(ns, wireWrite(write))).status).toBe(200);
      states.add(await readAll('strong'));
    }
    let reads = 0;
    // Every document operation here is a multiple of 8 logical bytes (8-byte ids and values): each step is a row.
    for (let pos = 0; pos <= namespace.headPos; pos += 8) {
      await namespace.indexTo(pos);
      const seen = await readAll('eventual');
      expect(states.has(seen), `eventual read with the index cursor at byte ${pos}: ${seen}`).toBe(true);
      reads++;
    }
    expect(reads).toBeGreaterThan(50);
  });
});
