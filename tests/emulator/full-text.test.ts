// Full-text search through HTTP (issue 33): the schema's full_text_search, BM25 rank_by with last_as_prefix, rank
// expressions, token filters, multi-query RRF fusion, and the write and metadata surface around them (schema drop,
// sharding, read_only, pinning). Exact expected results on small corpora; the BM25 figures themselves are checked
// against a reference implementation by the Python conformance suite (tests/emulator/python/test_fts_reference.py).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './harness';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

const WALRUS = [
  { id: 1, text: 'Walruses are large marine mammals with long tusks and whiskers' },
  { id: 2, text: 'They primarily inhabit the cold Arctic regions' },
  { id: 3, text: 'Walruses use their tusks to help haul themselves onto ice' },
  { id: 4, text: 'Their diet mainly consists of mollusks and other sea creatures' },
  { id: 5, text: 'Walrus populations are affected by climate change and melting ice' },
];
const STEMMED = { type: 'string', full_text_search: { language: 'english', stemming: true } };

async function seed(ns: string, rows: object[], schema: object, extra: object = {}) {
  const written = await emu.post(`/v2/namespaces/${ns}`, { upsert_rows: rows, schema, ...extra });
  expect(written.status, JSON.stringify(written.body)).toBe(200);
}

async function ids(ns: string, body: object): Promise<unknown[]> {
  const reply = await emu.post(`/v2/namespaces/${ns}/query`, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.rows.map((r: { id: unknown }) => r.id);
}

describe('BM25 ranking', () => {
  it('ranks by BM25 with $dist as the score, descending; rows without a query term are left out', async () => {
    await seed('fts-basic', WALRUS, { text: STEMMED });
    const reply = await emu.post('/v2/namespaces/fts-basic/query', {
      rank_by: ['text', 'BM25', 'walrus tusk'],
      top_k: 10,
      include_attributes: ['text'],
    });
    expect(reply.status).toBe(200);
    const rows = reply.body.rows;
    // 1 and 3 hold both terms and have as many terms each: the tie goes by id.
    expect(rows.map((r: { id: number }) => r.id)).toEqual([1, 3, 5]);
    expect(rows[0].$dist).toBe(rows[1].$dist);
    for (let i = 1; i < rows.length; i++) expect(rows[i].$dist).toBeLessThanOrEqual(rows[i - 1].$dist);
    expect(rows[0].text).toBe(WALRUS[0].text);
    // The SDK's live test: Sum of two clauses puts the document matching two rare terms first.
    expect(
      await ids('fts-basic', {
        rank_by: [
          'Sum',
          [
            ['text', 'BM25', 'large tusk'],
            ['text', 'BM25', 'mollusk diet'],
          ],
        ],
        top_k: 10,
      }),
    ).toEqual([4, 1, 3]);
  });

  it('replaced and deleted documents leave the statistics: scores equal a namespace written once', async () => {
    await seed('fts-churn', WALRUS, { text: STEMMED });
    await seed('fts-churn', [{ id: 2, text: 'walrus tusks on the ice' }], { text: STEMMED });
    expect((await emu.post('/v2/namespaces/fts-churn', { deletes: [4] })).status).toBe(200);
    const live = [WALRUS[0], { id: 2, text: 'walrus tusks on the ice' }, WALRUS[2], WALRUS[4]];
    await seed('fts-once', live, { text: STEMMED });
    // Indexed first, so the statistics come from the index less its dead rows.
    for (const ns of ['fts-churn', 'fts-once'])
      while ((await emu.get(`/v2/namespaces/${ns}/metadata`)).body.index.status !== 'up-to-date')
        await new Promise((resolve) => setTimeout(resolve, 10));
    for (const q of ['walrus tusk', 'ice', 'mollusk diet']) {
      const body = { rank_by: ['text', 'BM25', q], top_k: 10 };
      const churned = await emu.post('/v2/namespaces/fts-churn/query', body);
      const once = await emu.post('/v2/namespaces/fts-once/query', body);
      expect(churned.body.rows, q).toEqual(once.body.rows);
    }
  });

  it('without stemming, "walrus" does not match "Walruses"; case folds unless case_sensitive', async () => {
    await seed('fts-plain', WALRUS, { text: { type: 'string', full_text_search: true } });
    expect(await ids('fts-plain', { rank_by: ['text', 'BM25', 'walrus'], top_k: 10 })).toEqual([5]);
    expect(await ids('fts-plain', { rank_by: ['text', 'BM25', 'WALRUSES'], top_k: 10 })).toEqual([1, 3]);
    await seed('fts-case', WALRUS, { text: { type: 'string', full_text_search: { case_sensitive: true } } });
    expect(await ids('fts-case', { rank_by: ['text', 'BM25', 'walruses'], top_k: 10 })).toEqual([]);
    expect(await ids('fts-case', { rank_by: ['text', 'BM25', 'Walruses'], top_k: 10 })).toEqual([1, 3]);
  });

  it('last_as_prefix matches the last token as the start of a term', async () => {
    await seed('fts-prefix', WALRUS, {
      text: { type: 'string', full_text_search: { index_prefixes: true } },
    });
    expect(
      await ids('fts-prefix', { rank_by: ['text', 'BM25', 'walr', { last_as_prefix: true }], top_k: 10 }),
    ).toEqual([1, 3, 5]);
    // Without it, "walr" is a whole term no document holds.
    expect(await ids('fts-prefix', { rank_by: ['text', 'BM25', 'walr'], top_k: 10 })).toEqual([]);
    expect(
      await ids('fts-prefix', {
        rank_by: ['text', 'BM25', 'melting i', { last_as_prefix: true }],
        filters: ['text', 'ContainsAnyToken', 'melting i', { last_as_prefix: true }],
        top_k: 30,
      }),
    ).toEqual([5, 2, 3]); // "inhabit" starts with "i" too
  });

  it('Product weights, Max, Attribute and a filter as a rank term', async () => {
    await seed(
      'fts-expr',
      [
        { id: 1, title: 'one', content: 'foo bar baz', clicks: 5 },
        { id: 2, title: 'two', content: 'foo bar', clicks: 1 },
        { id: 3, title: 'three', content: 'bar baz', clicks: 100 },
      ],
      {
        title: { type: 'string', full_text_search: true },
        content: { type: 'string', full_text_search: true },
      },
    );
    const score = async (rank_by: unknown) => {
      const reply = await emu.post('/v2/namespaces/fts-expr/query', { rank_by, top_k: 10 });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return Object.fromEntries(reply.body.rows.map((r: { id: number; $dist: number }) => [r.id, r.$dist]));
    };
    const foo = await score(['content', 'BM25', 'foo']);
    const one = await score(['title', 'BM25', 'one']);
    expect(await score(['Product', 2, ['title', 'BM25', 'one']])).toEqual({ 1: 2 * one[1] });
    expect(await score(['Product', ['title', 'BM25', 'one'], 2])).toEqual({ 1: 2 * one[1] });
    expect(
      await score([
        'Sum',
        [
          ['Product', 2, ['title', 'BM25', 'one']],
          ['content', 'BM25', 'foo'],
        ],
      ]),
    ).toEqual({ 1: 2 * one[1] + foo[1], 2: foo[2] });
    expect(
      await score([
        'Max',
        [
          ['title', 'BM25', 'one'],
          ['content', 'BM25', 'foo'],
        ],
      ]),
    ).toEqual({ 1: Math.max(one[1], foo[1]), 2: foo[2] });
    expect(
      await score([
        'Sum',
        [
          ['content', 'BM25', 'foo'],
          ['Attribute', 'clicks'],
        ],
      ]),
    ).toEqual({ 1: foo[1] + 5, 2: foo[2] + 1, 3: 100 });
    expect(
      await score([
        'Sum',
        [
          ['content', 'BM25', 'foo'],
          ['clicks', 'Gte', 5],
        ],
      ]),
    ).toEqual({ 1: foo[1] + 1, 2: foo[2], 3: 1 });
  });

  it('pre_tokenized_array takes tokens as they are and wants the query as tokens', async () => {
    await seed(
      'fts-pretok',
      [
        { id: 1, content: ['jumped', 'over', 'the', 'lazy', 'dog'] },
        { id: 2, content: ['the', 'lazy', 'dog', 'is', 'brown'] },
      ],
      { content: { type: '[]string', full_text_search: { tokenizer: 'pre_tokenized_array' } } },
    );
    expect(await ids('fts-pretok', { rank_by: ['content', 'BM25', ['jumped', 'over']], top_k: 10 })).toEqual([
      1,
    ]);
    expect((await ids('fts-pretok', { rank_by: ['content', 'BM25', ['dog']], top_k: 10 })).length).toBe(2);
    const refused = await emu.post('/v2/namespaces/fts-pretok/query', {
      rank_by: ['content', 'BM25', 'jumped'],
      top_k: 10,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/invalid input .* for rank_by field "content", expecting \[\]string/);
  });

  it('sees unindexed writes (strong) and a settings change at once', async () => {
    const held = await startTestEmulator({ indexBytesPerSecond: 1, backlogLimitBytes: 1e12 });
    try {
      const write = await held.post('/v2/namespaces/fts-tail', {
        upsert_rows: WALRUS,
        schema: { text: STEMMED },
      });
      expect(write.status).toBe(200);
      const reply = await held.post('/v2/namespaces/fts-tail/query', {
        rank_by: ['text', 'BM25', 'walrus tusk'],
        top_k: 10,
      });
      expect(reply.body.rows.map((r: { id: number }) => r.id)).toEqual([1, 3, 5]);
      expect(reply.body.performance.exhaustive_search_count).toBe(5);
    } finally {
      await held.close();
    }
    // An index built with other settings is not used: the change shows in the next query.
    await seed('fts-resettle', WALRUS, { text: STEMMED });
    expect(await ids('fts-resettle', { rank_by: ['text', 'BM25', 'walrus'], top_k: 10 })).toEqual([1, 3, 5]);
    const changed = await emu.post('/v1/namespaces/fts-resettle/schema', {
      text: { type: 'string', full_text_search: { stemming: false } },
    });
    expect(changed.status).toBe(200);
    expect(await ids('fts-resettle', { rank_by: ['text', 'BM25', 'walrus'], top_k: 10 })).toEqual([5]);
  });
});

describe('token filters', () => {
  it('ContainsAllTokens, ContainsAnyToken and ContainsTokenSequence use the attribute analysis', async () => {
    await seed('fts-tokens', WALRUS, { text: STEMMED });
    const match = (filters: unknown) => ids('fts-tokens', { rank_by: ['id', 'asc'], filters, top_k: 10 });
    expect(await match(['text', 'ContainsAllTokens', 'marine mammals'])).toEqual([1]);
    expect(await match(['text', 'ContainsAllTokens', 'marine mammals short'])).toEqual([]);
    expect(await match(['text', 'ContainsAllTokens', 'walrus ice'])).toEqual([3, 5]);
    expect(await match(['text', 'ContainsAnyToken', 'mollusk arctic'])).toEqual([2, 4]);
    expect(await match(['text', 'ContainsAnyToken', ['mollusk', 'ice']])).toEqual([3, 4, 5]);
    expect(await match(['text', 'ContainsTokenSequence', 'long tusks'])).toEqual([1]);
    expect(await match(['text', 'ContainsTokenSequence', 'tusks long'])).toEqual([]);
    expect(await match(['text', 'ContainsTokenSequence', 'melting i', { last_as_prefix: true }])).toEqual([
      5,
    ]);
    expect(await match(['text', 'ContainsAllTokens', 'walrus mel', { last_as_prefix: true }])).toEqual([5]);
    expect(await match(['Not', ['text', 'ContainsAnyToken', 'walrus']])).toEqual([2, 4]);
    expect(
      await match([
        'Or',
        [
          ['text', 'ContainsAllTokens', 'marine things'],
          ['Not', ['Not', ['text', 'ContainsAllTokens', 'marine mammals']]],
        ],
      ]),
    ).toEqual([1]);
  });

  it('token filters need full-text search; other operators on a full-text attribute need filterable', async () => {
    await seed('fts-filter-errors', [{ id: 1, text: 'a b', tag: 'x' }], {
      text: { type: 'string', full_text_search: true },
    });
    const refused = async (filters: unknown) => {
      const reply = await emu.post('/v2/namespaces/fts-filter-errors/query', {
        rank_by: ['id', 'asc'],
        filters,
      });
      expect(reply.status).toBe(400);
      expect(reply.body.status).toBe('error');
      return reply.body.error as string;
    };
    expect(await refused(['tag', 'ContainsAnyToken', 'x'])).toMatch(/needs full-text search/);
    expect(await refused(['text', 'Eq', 'a b'])).toMatch(/not filterable/);
    expect(await refused(['text', 'ContainsAnyToken', 5])).toMatch(/invalid input 5 for ContainsAnyToken/);
    expect(await refused(['text', 'ContainsAnyToken', 'a', { last_as_prefx: true }])).toMatch(
      /unknown field/,
    );
    expect(await refused(['text', 'Fuzzy', 'a', {}])).toMatch(/Fuzzy needs a fuzzy index/);
  });
});

describe('multi-query fusion', () => {
  it('rerank_by RRF fuses the sub-queries into one result; limit, offset and weights apply', async () => {
    await seed(
      'fts-rrf',
      WALRUS.map((d, i) => ({ ...d, vector: [i + 1, 0] })),
      { text: STEMMED },
      { distance_metric: 'euclidean_squared' },
    );
    const body = {
      queries: [
        { rank_by: ['text', 'BM25', 'walrus ice'], top_k: 10 },
        { rank_by: ['vector', 'ANN', [4, 0]], top_k: 3 },
      ],
      rerank_by: ['RRF'],
      consistency: { level: 'eventual' },
    };
    const bm25 = await ids('fts-rrf', body.queries[0]);
    const ann = await ids('fts-rrf', body.queries[1]);
    const expected = new Map<unknown, number>();
    for (const list of [bm25, ann])
      list.forEach((id, r) => {
        expected.set(id, (expected.get(id) ?? 0) + 1 / (60 + r + 1));
      });
    const reply = await emu.post('/v2/namespaces/fts-rrf/query', body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.results).toHaveLength(1);
    const fused = reply.body.results[0].rows as { id: number; $dist: number }[];
    const want = [...expected].sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0]));
    expect(fused.map((r) => r.id)).toEqual(want.map(([id]) => id));
    fused.forEach((r, i) => {
      expect(r.$dist).toBeCloseTo(want[i][1], 12);
    });

    const paged = await emu.post('/v2/namespaces/fts-rrf/query', { ...body, limit: 2, offset: 1 });
    expect(paged.body.results[0].rows.map((r: { id: number }) => r.id)).toEqual(
      want.slice(1, 3).map(([id]) => id),
    );
    const weighted = await emu.post('/v2/namespaces/fts-rrf/query', {
      ...body,
      rerank_by: ['RRF', { rank_constant: 1, weights: [1, 10] }],
      limit: { total: 1 },
    });
    expect(weighted.body.results[0].rows.map((r: { id: number }) => r.id)).toEqual([ann[0]]);
  });

  it('400s for a bad rerank_by, weights that do not fit, offset without limit and aggregations', async () => {
    const queries = [{ rank_by: ['id', 'asc'] }, { rank_by: ['id', 'desc'] }];
    const refused = async (body: object) => {
      const reply = await emu.post('/v2/namespaces/fts-rrf/query', { queries, ...body });
      expect(reply.status).toBe(400);
      return reply.body.error as string;
    };
    expect(await refused({ rerank_by: ['RRF', { weights: [1] }] })).toMatch(
      /^rerank_by\[1\]\.weights: has 1 weights for 2/,
    );
    expect(await refused({ rerank_by: ['RRF', { rank_constant: 0 }] })).toMatch(
      /^rerank_by\[1\]\.rank_constant/,
    );
    expect(await refused({ rerank_by: ['RRF'], offset: 1 })).toMatch(/^offset: needs rerank_by and limit/);
    expect(await refused({ limit: 3 })).toMatch(/^limit: beside "queries" it needs rerank_by/);
    expect(await refused({ rerank_by: { model: 'x', query: 'q', attribute: 'text' } })).toMatch(
      /reranking with a model/,
    );
    const reply = await emu.post('/v2/namespaces/fts-rrf/query', {
      queries: [{ aggregate_by: { n: ['Count'] } }],
      rerank_by: ['RRF'],
    });
    expect(reply.body.error).toMatch(/^queries\[0\]\.aggregate_by: rerank_by fuses ranked rows/);
  });
});

describe('schema, write and metadata surface', () => {
  it('full_text_search settings are spelt out; full-text attributes default to not filterable', async () => {
    await seed('fts-schema', [{ id: 1, title: 'x', tags: ['a'] }], {
      title: { type: 'string', full_text_search: { stemming: true } },
      tags: { type: '[]string', full_text_search: true, filterable: true },
    });
    const md = await emu.get('/v2/namespaces/fts-schema/metadata');
    expect(md.body.schema.title).toEqual({
      type: 'string',
      filterable: false,
      full_text_search: {
        k1: 1.2,
        b: 0.75,
        language: 'english',
        stemming: true,
        max_token_length: 39,
        remove_stopwords: true,
        ascii_folding: false,
        case_sensitive: false,
        tokenizer: 'word_v4',
      },
    });
    expect(md.body.schema.tags.filterable).toBe(true);
    const schema = await emu.get('/v1/namespaces/fts-schema/schema');
    expect(schema.body.title.full_text_search.stemming).toBe(true);
    const off = await emu.post('/v1/namespaces/fts-schema/schema', {
      title: { type: 'string', full_text_search: false },
    });
    expect(off.body.title.full_text_search).toBeNull();
    for (const [entry, message] of [
      [{ type: 'int', full_text_search: true }, /needs a string or \[\]string attribute/],
      [{ type: 'string', full_text_search: { language: 'klingon' } }, /unknown language "klingon"/],
      [{ type: 'string', full_text_search: { tokenizer: 'pre_tokenized_array' } }, /needs a \[\]string/],
      [{ type: 'string', full_text_search: { max_token_length: 255 } }, /from 1 to 254/],
      [{ type: 'string', full_text_search: { k3: 8 } }, /unknown option/],
      [{ type: '{}f16' }, /sparse vectors/],
      [{ type: '[][4]f32' }, /multi-vector/],
      [{ type: '[4]i8' }, /int8 vectors/],
    ] as const) {
      const reply = await emu.post('/v2/namespaces/fts-schema-bad', {
        upsert_rows: [{ id: 1 }],
        schema: { a: entry },
      });
      expect(reply.status, JSON.stringify(entry)).toBe(400);
      expect(reply.body.error).toMatch(/^schema\.a/);
      expect(reply.body.error).toMatch(message);
    }
  });

  it('sparse values are refused as not modelled, naming the attribute', async () => {
    const reply = await emu.post('/v2/namespaces/fts-sparse', { upsert_rows: [{ id: 1, sp: { 1: 0.5 } }] });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(
      /^attribute sp: .*sparse vector \(\{\}f16\), which the emulator does not model/,
    );
    const multi = await emu.post('/v2/namespaces/fts-sparse', {
      upsert_rows: [
        {
          id: 1,
          vector: [
            [1, 2],
            [3, 4],
          ],
        },
      ],
      distance_metric: 'cosine_distance',
    });
    expect(multi.status).toBe(400);
    expect(multi.body.error).toMatch(
      /^upsert_rows\[0\]\.vector\[0\]: .*multi-vector documents \(\[\]\[N\]f32\) are not modelled/,
    );
  });

  it('schema drop removes an attribute from the schema and every document', async () => {
    await seed('fts-drop', [{ id: 1, keep: 'k', gone: 'g', text: 'hello world' }], {
      text: { type: 'string', full_text_search: true },
    });
    const dropped = await emu.post('/v2/namespaces/fts-drop', {
      schema: { gone: { drop: true }, text: { drop: true } },
    });
    expect(dropped.status, JSON.stringify(dropped.body)).toBe(200);
    const md = await emu.get('/v2/namespaces/fts-drop/metadata');
    expect(Object.keys(md.body.schema)).toEqual(['id', 'keep']);
    const rows = await emu.post('/v2/namespaces/fts-drop/query', {
      rank_by: ['id', 'asc'],
      include_attributes: true,
    });
    expect(rows.body.rows).toEqual([{ id: 1, keep: 'k' }]);
    const refused = async (schema: object, extra: object = {}) => {
      const reply = await emu.post('/v2/namespaces/fts-drop', { schema, ...extra });
      expect(reply.status).toBe(400);
      return reply.body.error as string;
    };
    expect(await refused({ keep: { drop: true, type: 'string' } })).toMatch(
      /^schema\.keep\.type: drop cannot be combined/,
    );
    expect(await refused({ keep: { drop: false } })).toMatch(/^schema\.keep\.drop: must be true/);
    expect(await refused({ nothing: { drop: true } })).toMatch(/no attribute nothing to drop/);
    expect(await refused({ id: { drop: true } })).toMatch(/^schema\.id: the id cannot be dropped/);
    expect(await refused({ keep: { drop: true } }, { upsert_rows: [{ id: 2, keep: 'x' }] })).toMatch(
      /dropped and written/,
    );
  });

  it('sharding is set by the first write and reported; a later different one is a 400', async () => {
    await seed('fts-sharded', [{ id: 1 }], {}, { sharding: { num_shards: 4 } });
    expect((await emu.get('/v2/namespaces/fts-sharded/metadata')).body.sharding).toEqual({ num_shards: 4 });
    expect(
      (
        await emu.post('/v2/namespaces/fts-sharded', {
          upsert_rows: [{ id: 2 }],
          sharding: { num_shards: 4 },
        })
      ).status,
    ).toBe(200);
    const later = await emu.post('/v2/namespaces/fts-sharded', {
      upsert_rows: [{ id: 3 }],
      sharding: { num_shards: 8 },
    });
    expect(later.status).toBe(400);
    expect(later.body.error).toMatch(/^sharding: can only be configured on a namespace's first write/);
    for (const sharding of [{ num_shards: 0 }, { num_shards: 257 }, { shards: 2 }, 4]) {
      const reply = await emu.post('/v2/namespaces/fts-sharded-bad', { upsert_rows: [{ id: 1 }], sharding });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatch(/^sharding/);
    }
    const plain = await emu.get('/v2/namespaces/fts-basic/metadata');
    expect(plain.body.sharding).toBeUndefined();
  });

  it('read_only refuses document and schema writes with 403 until it is lifted; pinning is reported', async () => {
    await seed('fts-readonly', [{ id: 1, n: 1 }], {});
    const set = await emu.request('PATCH', '/v1/namespaces/fts-readonly/metadata', {
      read_only: true,
      pinning: { replicas: 2 },
    });
    expect(set.status).toBe(200);
    expect(set.body.read_only).toBe(true);
    expect(set.body.pinning).toMatchObject({
      replicas: 2,
      status: { replicas: 2, ready_replicas: 2, utilization: 0 },
    });
    const write = await emu.post('/v2/namespaces/fts-readonly', { upsert_rows: [{ id: 2 }] });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ status: 'error', error: expect.stringMatching(/is read-only/) });
    expect(
      (await emu.post('/v1/namespaces/fts-readonly/schema', { n: { type: 'int', filterable: false } }))
        .status,
    ).toBe(403);
    expect((await emu.post('/v2/namespaces/fts-readonly/query', { rank_by: ['id', 'asc'] })).status).toBe(
      200,
    );
    const cleared = await emu.request('PATCH', '/v1/namespaces/fts-readonly/metadata', {
      read_only: false,
      pinning: null,
    });
    expect(cleared.body.read_only).toBeUndefined();
    expect(cleared.body.pinning).toBeUndefined();
    expect((await emu.post('/v2/namespaces/fts-readonly', { upsert_rows: [{ id: 2 }] })).status).toBe(200);
  });
});
