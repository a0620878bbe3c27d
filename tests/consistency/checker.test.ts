// The checker on small hand-written histories: what it must accept, and each violation the suite exists to find,
// refused with the reason named (so a checker that accepts everything cannot pass the suite unnoticed).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../temp-dir';
import { runChecker, type Verdict } from './checker';
import type { Affected, History, Op, Read, Row, Write } from './history';

const dir = tempDir('bench-checker-');
let files = 0;

function check(ops: Op[], logOrder?: number[], out?: string): Verdict {
  const history: History = { seed: 1, index: 0, clients: 3, kills: [], meta: {}, ops, logOrder };
  const file = join(dir, `h${files++}.json`);
  writeFileSync(file, JSON.stringify(history));
  return runChecker(file, out, 10);
}

const none: Affected = { upserted: [], patched: [], deleted: [] };
const write = (
  client: number,
  call: number,
  ret: number,
  n: number,
  w: Write,
  affected: Affected = none,
): Op => ({
  client,
  call,
  return: ret,
  n,
  write: w,
  affected,
});
const read = (client: number, call: number, ret: number, r: Read, rows: Row[]): Op => ({
  client,
  call,
  return: ret,
  read: r,
  rows,
});
const row = (id: number, v: number, g = 0, p: number | null = null): Row => ({ id, v, g, p });
const upsert12: Write = {
  upserts: [
    { id: 1, v: 1, g: 0 },
    { id: 2, v: 1, g: 0 },
  ],
};
const strong: Read = { consistency: 'strong' };
const eventual: Read = { consistency: 'eventual' };

describe('the consistency checker', () => {
  it('accepts a history where reads see acknowledged writes, and concurrent reads either side', () => {
    const v = check(
      [
        write(0, 0, 10, 1, upsert12, { upserted: [1, 2], patched: [], deleted: [] }),
        read(1, 5, 8, strong, []),
        read(2, 20, 30, strong, [row(1, 1), row(2, 1)]),
        read(1, 25, 35, eventual, []),
      ],
      [1],
    );
    expect(v).toMatchObject({ result: 'ok', porcupine: 'Ok', witness: true });
  });

  it('refuses a strong read that misses a write acknowledged before it began', () => {
    const v = check(
      [
        write(0, 0, 10, 1, upsert12, { upserted: [1, 2], patched: [], deleted: [] }),
        read(1, 20, 30, strong, []),
      ],
      [1],
    );
    expect(v.result).toBe('violation');
    expect(v.porcupine).toBe('Illegal');
    expect(v.problems?.join('\n')).toMatch(/log order is no linearization: strong read by client 1/);
  });

  it('refuses a strong read that sees part of a write (a batch is all or nothing)', () => {
    const v = check(
      [
        write(0, 0, 10, 1, upsert12, { upserted: [1, 2], patched: [], deleted: [] }),
        read(1, 5, 30, strong, [row(1, 1)]),
      ],
      [1],
    );
    expect(v).toMatchObject({ result: 'violation', porcupine: 'Illegal' });
  });

  it('refuses an acknowledged write missing from the log (lost across a restart)', () => {
    const v = check([write(0, 0, 10, 1, upsert12, { upserted: [1, 2], patched: [], deleted: [] })], []);
    expect(v.result).toBe('violation');
    expect(v.problems).toContain('write 1 was acknowledged but is not in the log: lost');
  });

  it('refuses a conditional upsert that was applied although its condition failed', () => {
    const v = check(
      [
        write(0, 0, 10, 1, { upserts: [{ id: 1, v: 5, g: 0 }] }, { upserted: [1], patched: [], deleted: [] }),
        write(
          0,
          20,
          30,
          2,
          { upserts: [{ id: 1, v: 3, g: 0 }], conditional: true },
          { upserted: [1], patched: [], deleted: [] },
        ),
      ],
      [1, 2],
    );
    expect(v.result).toBe('violation');
    expect(v.porcupine).toBe('Illegal');
    expect(v.problems?.join('\n')).toMatch(
      /write 2 \(log position 2\) answered upserted \[1\].*in log order it upserts \[\]/,
    );
  });

  it('refuses an eventual read that sees a write sent after it returned (uncommitted)', () => {
    const v = check(
      [
        read(1, 0, 10, eventual, [row(1, 1), row(2, 1)]),
        write(0, 20, 30, 1, upsert12, { upserted: [1, 2], patched: [], deleted: [] }),
      ],
      [1],
    );
    expect(v.result).toBe('violation');
    expect(v.problems?.[0]).toMatch(/^eventual read by client 1 .* no prefix of the first 0 logged writes/);
  });

  it('refuses an eventual read that sees part of a write, and accepts one that lags whole writes behind', () => {
    const w1 = write(0, 0, 10, 1, upsert12, { upserted: [1, 2], patched: [], deleted: [] });
    const w2 = write(0, 20, 30, 2, { deletes: [1, 2] }, { upserted: [], patched: [], deleted: [1, 2] });
    expect(check([w1, w2, read(1, 40, 50, eventual, [row(2, 1)])], [1, 2]).result).toBe('violation');
    expect(check([w1, w2, read(1, 40, 50, eventual, [row(1, 1), row(2, 1)])], [1, 2]).result).toBe('ok');
    // The same lag is a violation when the client knew the index plus the tail covered the backlog.
    const covered = check(
      [w1, w2, read(1, 40, 50, { ...eventual, covered: true }, [row(1, 1), row(2, 1)])],
      [1, 2],
    );
    expect(covered).toMatchObject({ result: 'violation', porcupine: 'Illegal' });
  });

  it('refuses a log order that contradicts real time', () => {
    const v = check(
      [
        write(0, 0, 10, 1, { upserts: [{ id: 1, v: 1, g: 0 }] }, { upserted: [1], patched: [], deleted: [] }),
        write(1, 20, 30, 2, { deletes: [1] }, { upserted: [], patched: [], deleted: [1] }),
      ],
      [2, 1],
    );
    expect(v.result).toBe('violation');
    expect(v.problems?.join('\n')).toMatch(
      /write 1 was acknowledged before write 2 was sent, but is logged after it/,
    );
  });

  it('takes a write whose answer a kill swallowed as applied or not, and as applied when the log holds it', () => {
    const lost: Op = { client: 0, call: 0, return: 10, unknown: true, n: 1, write: upsert12 };
    expect(check([lost, read(1, 20, 30, strong, [])]).result).toBe('ok');
    expect(check([lost, read(1, 20, 30, strong, [row(1, 1), row(2, 1)])]).result).toBe('ok');
    expect(check([lost, read(1, 20, 30, strong, [row(2, 1)])]).result).toBe('violation');
    const logged: Op = { ...lost, applied: true };
    expect(check([logged, read(1, 20, 30, strong, [row(1, 1), row(2, 1)])], [1]).result).toBe('ok');
    expect(check([logged, read(1, 20, 30, strong, [])], [1]).result).toBe('violation');
  });

  it('finds an order of concurrent writes the reads agree on, and refuses reads no order explains', () => {
    const a = write(
      0,
      0,
      100,
      1,
      { upserts: [{ id: 1, v: 1, g: 0 }] },
      { upserted: [1], patched: [], deleted: [] },
    );
    const b = write(
      1,
      0,
      100,
      2,
      { upserts: [{ id: 1, v: 2, g: 0 }] },
      { upserted: [1], patched: [], deleted: [] },
    );
    expect(
      check([a, b, read(2, 50, 60, strong, [row(1, 2)]), read(2, 70, 80, strong, [row(1, 1)])]).result,
    ).toBe('ok');
    // Without the log porcupine alone decides; v1 after v2 after v1 has no order.
    const v = check([a, b, read(2, 110, 120, strong, [row(1, 1)]), read(2, 130, 140, strong, [row(1, 2)])]);
    expect(v).toMatchObject({ result: 'violation', porcupine: 'Illegal' });
  });

  it('minimises a failing history to the operations that show it and draws porcupine`s visualisation', () => {
    const ops: Op[] = [write(0, 0, 10, 1, upsert12, { upserted: [1, 2], patched: [], deleted: [] })];
    for (let k = 0; k < 20; k++)
      ops.push(read(1 + (k % 2), 20 + 20 * k, 30 + 20 * k, strong, [row(1, 1), row(2, 1)]));
    ops.push(read(1, 500, 510, strong, [row(1, 1)]));
    const out = join(dir, 'out');
    const v = check(ops, [1], out);
    expect(v.result).toBe('violation');
    expect(v.minimisedOps).toBe(2);
    expect(v.message).toMatch(/client 1 \[500, 510\] strong read all -> \[1:v1\/g0\/p-\]/);
    const minimal = JSON.parse(readFileSync(v.history as string, 'utf8')) as History;
    expect(minimal.ops).toHaveLength(2);
    expect(existsSync(v.html as string)).toBe(true);
    expect(readFileSync(v.html as string, 'utf8')).toMatch(/<title>Porcupine<\/title>/);
  });
});
