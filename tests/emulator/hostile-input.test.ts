// Issue 14's hostile request bodies, each answered with a 400 in turbopuffer's envelope naming the field (never a
// 500, never silently accepted), and the write order turbopuffer documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JsonReply, startTestEmulator, type TestEmulator } from './harness';

let e: TestEmulator;
beforeAll(async () => {
  e = await startTestEmulator();
});
afterAll(async () => {
  await e.close();
});

let counter = 0;
/** A fresh namespace per case, so no case depends on another's schema. */
const fresh = () => `/v2/namespaces/hostile-${++counter}`;

function expect400(reply: JsonReply, message: string | RegExp): void {
  expect(reply.status).toBe(400);
  expect(reply.body.status).toBe('error');
  if (typeof message === 'string') expect(reply.body.error).toBe(message);
  else expect(reply.body.error).toMatch(message);
}

const nested = (depth: number, wrap: (inner: string) => string, leaf: string) => {
  let text = leaf;
  for (let i = 0; i < depth; i++) text = wrap(text);
  return text;
};

describe('nesting 10,000 deep', () => {
  const deepAnd = nested(10_000, (f) => `["And",[${f}]]`, '["n","Eq",1]');
  const deepNot = nested(10_000, (f) => `["Not",${f}]`, '["n","Eq",1]');

  it('filters in queries, And and Not: 400 with the depth limit', async () => {
    const ns = fresh();
    await e.post(ns, { upsert_rows: [{ id: 1, n: 1 }] });
    for (const filter of [deepAnd, deepNot])
      expect400(
        await e.post(`${ns}/query`, `{"rank_by":["id","asc"],"filters":${filter}}`),
        'filters: nested deeper than 128 levels of arrays and objects',
      );
  });

  it('delete_by_filter and write conditions: 400 naming the field', async () => {
    const ns = fresh();
    await e.post(ns, { upsert_rows: [{ id: 1, n: 1 }] });
    expect400(
      await e.post(ns, `{"delete_by_filter":${deepAnd}}`),
      'delete_by_filter: nested deeper than 128 levels of arrays and objects',
    );
    expect400(
      await e.post(ns, `{"upsert_rows":[{"id":1}],"upsert_condition":${deepNot}}`),
      'upsert_condition: nested deeper than 128 levels of arrays and objects',
    );
    expect(
      (await e.post(`${ns}/query`, { rank_by: ['id', 'asc'], include_attributes: ['n'] })).body.rows,
    ).toEqual([{ id: 1, n: 1 }]);
  });

  it('a schema body (POST /v1/namespaces/:ns/schema): 400, not 500', async () => {
    const deep = nested(10_000, (v) => `[${v}]`, '1');
    expect400(
      await e.post(`/v1/namespaces/hostile-schema/schema`, `{"n":{"type":"int","filterable":${deep}}}`),
      'schema: nested deeper than 128 levels of arrays and objects',
    );
    // The body may not smuggle write fields past the schema object.
    expect400(
      await e.post(`/v1/namespaces/hostile-schema/schema`, '{"n":"int"}, "upsert_rows":[{"id":1}]'),
      /^request body is not valid JSON/,
    );
  });

  it('an attribute value and a vector: 400 naming the row and attribute', async () => {
    const deep = nested(10_000, (v) => `[${v}]`, '1');
    expect400(
      await e.post(fresh(), `{"upsert_rows":[{"id":1,"tags":${deep}}]}`),
      'upsert_rows[0].tags: nested deeper than 128 levels of arrays and objects',
    );
    expect400(
      await e.post(
        fresh(),
        `{"upsert_rows":[{"id":1,"vector":${deep}}],"distance_metric":"cosine_distance"}`,
      ),
      /^upsert_rows\[0\]\.vector\[0\]: expected a number, got \[\[\[\[/,
    );
  });
});

describe('non-finite vectors', () => {
  it('1e309 and -1e309 in a written vector: 400 naming the element', async () => {
    for (const x of ['1e309', '-1e309', '1e39'])
      expect400(
        await e.post(
          fresh(),
          `{"upsert_rows":[{"id":1,"vector":[0.5,${x}]}],"distance_metric":"cosine_distance"}`,
        ),
        `upsert_rows[0].vector[1]: ${x === '1e39' ? '1e+39' : x.startsWith('-') ? '-Infinity' : 'Infinity'} is not a finite 32-bit float (|x| <= 3.4e38); vectors must be finite`,
      );
  });

  it('NaN bits in a base64 vector: 400', async () => {
    const bytes = Buffer.from(new Float32Array([1, Number.NaN]).buffer).toString('base64');
    expect400(
      await e.post(fresh(), { upsert_rows: [{ id: 1, vector: bytes }], distance_metric: 'cosine_distance' }),
      'upsert_rows[0].vector: float 1 of the base64 vector is NaN (NaN or infinite bits); vectors must be finite',
    );
  });

  it('a non-finite query vector: 400 instead of empty rows', async () => {
    const ns = fresh();
    await e.post(ns, { upsert_rows: [{ id: 1, vector: [1, 0] }], distance_metric: 'cosine_distance' });
    expect400(
      await e.post(`${ns}/query`, '{"rank_by":["vector","ANN",[1e309,0]],"top_k":1}'),
      'rank_by[2][0]: Infinity is not a finite 32-bit float (|x| <= 3.4e38); vectors must be finite',
    );
  });
});

describe('attribute names', () => {
  it('256 bytes and more: refused with the 128-byte limit, never stored under a placeholder', async () => {
    const long = 'a'.repeat(256);
    const ns = fresh();
    expect400(
      await e.post(ns, { upsert_rows: [{ id: 1, [long]: 'x' }] }),
      `upsert_rows[0].${long.slice(0, 65)}...: attribute names are at most 128 bytes (got 256)`,
    );
    expect400(
      await e.post(ns, { upsert_columns: { id: [1], [long]: ['x'] } }),
      /^upsert_columns\.a+\.\.\.: attribute names are at most 128 bytes \(got 256\)$/,
    );
    expect400(await e.post(ns, { schema: { [long]: 'string' } }), /attribute names are at most 128 bytes/);
    // 128 bytes is allowed and comes back under its own name.
    const max = 'b'.repeat(128);
    expect((await e.post(ns, { upsert_rows: [{ id: 1, [max]: 'kept' }] })).status).toBe(200);
    expect(
      (await e.post(`${ns}/query`, { rank_by: ['id', 'asc'], include_attributes: true })).body.rows,
    ).toEqual([{ id: 1, [max]: 'kept' }]);
  });

  it('an empty name: 400', async () => {
    expect400(
      await e.post(fresh(), { upsert_rows: [{ id: 1, '': 'x' }] }),
      /attribute names must not be empty/,
    );
    expect400(
      await e.post(fresh(), { schema: { '': 'string' } }),
      'schema.: attribute names must not be empty',
    );
  });

  it('__proto__, which JavaScript objects cannot carry: refused wherever a name is given, never kept unseen', async () => {
    // Before: the write got 200 and a filter on it matched, but rows, metadata and aggregations lacked it.
    const ns = fresh();
    const refused = (where: string) =>
      `${where}: the attribute name __proto__ is not supported by the emulator (its JavaScript objects cannot carry it as a field); use another name`;
    // As raw text: an object literal's __proto__ key would set the prototype instead of making a field.
    expect400(
      await e.post(ns, '{"upsert_rows":[{"id":1,"__proto__":5}]}'),
      refused('upsert_rows[0].__proto__'),
    );
    expect400(
      await e.post(ns, '{"upsert_columns":{"id":[1],"__proto__":[5]}}'),
      refused('upsert_columns.__proto__'),
    );
    expect400(
      await e.post(ns, '{"schema":{"__proto__":"int"},"upsert_rows":[{"id":1}]}'),
      refused('schema.__proto__'),
    );
    expect((await e.post(ns, { upsert_rows: [{ id: 1, n: 1 }] })).status).toBe(200);
    expect400(
      await e.post(ns, '{"patch_by_filter":{"filters":["id","Eq",1],"patch":{"__proto__":1}}}'),
      refused('patch_by_filter.patch.__proto__'),
    );
    expect400(
      await e.post(`${ns}/query`, '{"aggregate_by":{"__proto__":["Count"]}}'),
      'aggregate_by.__proto__: the aggregation name __proto__ is not supported by the emulator (its JavaScript objects cannot carry it as a field); use another name',
    );
    expect400(
      await e.post(`${ns}/query`, '{"aggregate_by":{"c":["Count"]},"group_by":["__proto__"]}'),
      refused('group_by[0]'),
    );
  });
});

describe('write semantics', () => {
  it('deletes apply after upserts in the same request (documented order)', async () => {
    const ns = fresh();
    const reply = await e.post(ns, {
      upsert_rows: [
        { id: 20, n: 1 },
        { id: 21, n: 2 },
      ],
      deletes: [20],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.rows_deleted).toBe(1);
    expect((await e.post(`${ns}/query`, { rank_by: ['id', 'asc'] })).body.rows).toEqual([{ id: 21 }]);
    // A patch of an id upserted earlier in the same request patches that new document.
    await e.post(ns, { upsert_rows: [{ id: 30, n: 1 }], patch_rows: [{ id: 30, n: 5 }] });
    expect(
      (await e.post(`${ns}/query`, { filters: ['id', 'Eq', 30], include_attributes: ['n'] })).body.rows,
    ).toEqual([{ id: 30, n: 5 }]);
  });

  it('a fraction written to an attribute inferred as int: 400 naming the attribute and both types', async () => {
    const ns = fresh();
    await e.post(ns, { upsert_rows: [{ id: 1, price: 3 }] });
    expect400(
      await e.post(ns, { upsert_rows: [{ id: 2, price: 0.5 }] }),
      "type mismatch for attribute price: it is int, got 0.5 (float); an attribute's type cannot change after its first write (declare it in the schema to choose)",
    );
    expect((await e.get(`${ns}/metadata`)).body.schema.price.type).toBe('int');
    // The first write of an attribute may mix integers and fractions: it is inferred as float.
    const mixed = fresh();
    await e.post(mixed, {
      upsert_rows: [
        { id: 1, p: 1 },
        { id: 2, p: 2.5 },
      ],
    });
    expect((await e.get(`${mixed}/metadata`)).body.schema.p.type).toBe('float');
  });

  it('an integer beyond 2^53 in an int attribute: 400 that does not pass the rounded digits off as those sent', async () => {
    const ns = fresh();
    expect400(
      await e.post(ns, '{"upsert_rows":[{"id":1,"n":9007199254740993}]}'),
      'attribute n: 9007199254740992 holds an integer beyond +-2^53 (shown as read into a 64-bit float, so its last digits may differ from those sent), which the emulator cannot store exactly as int; keep such values in a string attribute',
    );
  });

  it('encryption other than {"mode": "default"}: 400', async () => {
    for (const value of [1, 'x', [], { mode: 'other' }, { mode: 'default', key_name: 'k' }])
      expect400(
        await e.post(fresh(), { upsert_rows: [{ id: 1 }], encryption: value }),
        /^encryption(\.mode|\.key_name)?: /,
      );
    expect(
      (await e.post(fresh(), { upsert_rows: [{ id: 1 }], encryption: { mode: 'default' } })).status,
    ).toBe(200);
  });

  it('the unbuilt indexes (fuzzy, embed, sparse_knn): 400 naming the option; full_text_search is served', async () => {
    expect(
      (
        await e.post(fresh(), {
          upsert_rows: [{ id: 1, t: 'x' }],
          schema: { t: { type: 'string', full_text_search: true } },
        })
      ).status,
    ).toBe(200);
    expect400(
      await e.post(fresh(), { schema: { t: { type: 'string', fuzzy: true } } }),
      /^schema\.t\.fuzzy: fuzzy matching is not implemented/,
    );
    const off = fresh();
    expect(
      (
        await e.post(off, {
          upsert_rows: [{ id: 1, t: 'x' }],
          schema: { t: { type: 'string', full_text_search: false } },
        })
      ).status,
    ).toBe(200);
  });
});
