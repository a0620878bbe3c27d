// Ids over the whole u64 range as raw JSON numbers: written, filtered, ordered, deleted and read back digit for
// digit, before and after a restart from --data-dir; and the exact 400s for ids that are not u64.
import { describe, expect, it } from 'vitest';
import { type TestEmulator, useDataDirs } from './harness';

const TWO_53_PLUS_1 = '9007199254740993';
const U64_MAX = '18446744073709551615';

const dataDirs = useDataDirs('bench-ids-');
let emulator: TestEmulator | null = null;

/** POSTs raw JSON text and returns the raw response text (JSON.parse would round the ids we check). */
async function raw(path: string, text: string): Promise<{ status: number; text: string }> {
  const response = await fetch((emulator as TestEmulator).url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  return { status: response.status, text: await response.text() };
}

async function idsOf(query: string): Promise<string> {
  const reply = await raw('/v2/namespaces/big/query', query);
  expect(reply.status).toBe(200);
  // The ids as the response wrote them, in order.
  return [...reply.text.matchAll(/"id":(-?\d+)/g)].map((m) => m[1]).join(' ');
}

describe('u64 ids', () => {
  it('keeps 0, 2^53+1 and 2^64-1 exact through writes, filters, ordering, deletes and a restart', async () => {
    const dataDir = dataDirs.tempDir();
    emulator = await dataDirs.start({ dataDir });
    const write = await raw(
      '/v2/namespaces/big',
      `{"upsert_rows":[{"id":${U64_MAX},"n":3},{"id":0,"n":1},{"id":${TWO_53_PLUS_1},"n":2},{"id":9007199254740992,"n":4}],"return_affected_ids":true}`,
    );
    expect(write.status).toBe(200);
    expect(write.text).toContain(`"upserted_ids":[${U64_MAX},0,${TWO_53_PLUS_1},9007199254740992]`);

    const all = '{"rank_by":["id","asc"],"top_k":10}';
    expect(await idsOf(all)).toBe(`0 9007199254740992 ${TWO_53_PLUS_1} ${U64_MAX}`);
    expect(await idsOf('{"rank_by":["id","desc"],"top_k":10}')).toBe(
      `${U64_MAX} ${TWO_53_PLUS_1} 9007199254740992 0`,
    );
    // 2^53 + 1 and 2^53 are one apart: a rounding parser would confuse them.
    expect(await idsOf(`{"rank_by":["id","asc"],"filters":["id","Eq",${TWO_53_PLUS_1}]}`)).toBe(
      TWO_53_PLUS_1,
    );
    expect(await idsOf(`{"rank_by":["id","asc"],"filters":["id","Gt",${TWO_53_PLUS_1}]}`)).toBe(U64_MAX);
    expect(
      await idsOf(`{"rank_by":["id","asc"],"filters":["id","In",[0,${U64_MAX},18446744073709551614]]}`),
    ).toBe(`0 ${U64_MAX}`);
    expect(await idsOf(`{"rank_by":["id","asc"],"filters":["n","Gte",3],"include_attributes":["n"]}`)).toBe(
      `9007199254740992 ${U64_MAX}`,
    );

    const deleted = await raw(
      '/v2/namespaces/big',
      `{"deletes":[${TWO_53_PLUS_1}],"patch_rows":[{"id":${U64_MAX},"n":30}],"return_affected_ids":true}`,
    );
    expect(deleted.status).toBe(200);
    expect(deleted.text).toContain(`"deleted_ids":[${TWO_53_PLUS_1}]`);
    expect(deleted.text).toContain(`"patched_ids":[${U64_MAX}]`);
    const byFilter = await raw('/v2/namespaces/big', '{"delete_by_filter":["id","Eq",9007199254740992]}');
    expect(byFilter.text).toContain('"rows_deleted":1');
    const expected = `0 ${U64_MAX}`;
    expect(await idsOf(all)).toBe(expected);

    await emulator.close();
    emulator = await dataDirs.start({ dataDir });
    expect(await idsOf(all)).toBe(expected);
    const patched = await raw(
      '/v2/namespaces/big/query',
      `{"filters":["id","Eq",${U64_MAX}],"include_attributes":["n"]}`,
    );
    expect(patched.text).toContain(`{"id":${U64_MAX},"n":30}`);
  });

  it('answers ids that are not u64 with a 400 that says exactly why', async () => {
    emulator = await dataDirs.start();
    const error = async (id: string) => {
      const reply = await raw('/v2/namespaces/bad', `{"upsert_rows":[{"id":0},{"id":${id}}]}`);
      expect(reply.status).toBe(400);
      return JSON.parse(reply.text).error as string;
    };
    const range = 'upsert_rows[1].id: expected an integer id from 0 to 18446744073709551615';
    expect(await error('-1')).toBe(`${range}; -1 is negative`);
    expect(await error('-9007199254740993')).toBe(`${range}; -9007199254740993 is negative`);
    expect(await error('1.5')).toBe(`${range}; 1.5 has a fractional part`);
    expect(await error('18446744073709551616')).toBe(`${range}; 18446744073709551616 is too large for u64`);
    expect(await error('1e309')).toBe(
      `${range}; the number is beyond the range of a 64-bit float (it reads as Infinity)`,
    );
    expect(await error('1e19')).toBe(
      `${range}; write ids of 2^53 and more as plain digits (got 10000000000000000000, an inexact float)`,
    );
    expect(await error('"x"')).toBe(`${range}, got "x"`);
    const deletes = await raw('/v2/namespaces/bad', '{"upsert_rows":[{"id":1}],"deletes":[1, -2]}');
    expect(JSON.parse(deletes.text).error).toBe(
      'deletes[1]: expected an integer id from 0 to 18446744073709551615; -2 is negative',
    );
    // Nothing of a refused write was applied: not even the namespace exists.
    expect((await emulator.post('/v2/namespaces/bad/query', { rank_by: ['id', 'asc'] })).status).toBe(404);
  });
});
