// Bodies -> typed requests: long base64 strings stay in the buffer and decode straight into Float32Arrays; every
// vector form the SDK allows; and write/query bodies' 400s naming the field.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import type { FilterSchema } from '../filters/parse';
import {
  MAX_JSON_DEPTH,
  materialize,
  parseJsonBody,
  parseJsonBodyAsync,
  RawString,
  REPLACE_SLICE_STRINGS,
  SCAN_SLICE_BYTES,
} from './json-body';
import { describeJson, stringifyJson } from './json-text';
import { parseQueryRequest, querySlots, readQueryBody } from './query-request';
import { parseRecallRequest, readRecallBody } from './recall-request';
import { decodeVectors, plainAllocator, readVectorColumn } from './vectors';
import { parseWriteRequest } from './write-request';

const f32b64 = (v: number[]) => Buffer.from(new Float32Array(v).buffer).toString('base64');
const ctx = { vectorColumns: new Set<string>(), vectorDims: () => null, alloc: plainAllocator };
/** A namespace with u64 ids and one filterable int attribute, n. */
const schema: FilterSchema = {
  idType: 'uint',
  attribute: (name) =>
    name === 'n' ? { type: { kind: 'scalar', scalar: 'int' }, filterable: true, declared: true } : undefined,
};

function badRequest(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as Error).message;
  }
  throw new Error('expected a 400');
}

describe('parseJsonBody', () => {
  it('leaves long escape-free strings in the buffer and parses the rest as JSON', () => {
    const long = 'A'.repeat(400);
    const body = Buffer.from(
      JSON.stringify({ a: [long, 'short', { b: long }], esc: `${'x'.repeat(300)}\\"q` }),
    );
    const parsed = parseJsonBody(body) as { a: [RawString, string, { b: RawString }]; esc: string };
    expect(parsed.a[0]).toBeInstanceOf(RawString);
    expect(parsed.a[0].toString()).toBe(long);
    expect(parsed.a[1]).toBe('short');
    expect(parsed.a[2].b).toBeInstanceOf(RawString);
    // Strings with escapes go through JSON.parse so their escapes are honoured.
    expect(parsed.esc).toBe(`${'x'.repeat(300)}\\"q`);
    expect(materialize(parsed)).toEqual(JSON.parse(body.toString()));
  });

  it('a short string that looks like a placeholder stays a string', () => {
    const body = Buffer.from(JSON.stringify({ s: '\u0000abc:0', long: 'B'.repeat(300) }));
    expect((parseJsonBody(body) as { s: string }).s).toBe('\u0000abc:0');
  });

  it('a body that is one long string is that string, so each route refuses it as "not an object"', () => {
    const long = JSON.stringify('L'.repeat(5000));
    expect(parseJsonBody(Buffer.from(long))).toBe('L'.repeat(5000));
    // It used to come back as a RawString, which the routes took for an object with a `body` field.
    expect(badRequest(() => readRecallBody(Buffer.from(long), schema))).toBe(
      'request body: expected a JSON object',
    );
    expect(badRequest(() => parseWriteRequest(parseJsonBody(Buffer.from(long)), ctx))).toBe(
      'request body: expected a JSON object',
    );
  });

  it('invalid JSON is a 400', () => {
    expect(badRequest(() => parseJsonBody(Buffer.from('{"a": [1,')))).toMatch(/not valid JSON/);
  });

  it('the sliced async parse returns the same value and takes a turn per slice of a large body', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `${String(i).padStart(4, '0')}${'Q'.repeat(4092)}`);
    const body = Buffer.from(JSON.stringify({ id: rows.map((_, i) => i), v: rows, esc: 'a\\"b' }));
    let turns = 0;
    const parsed = await parseJsonBodyAsync(body, async () => {
      turns++;
    });
    expect((parsed as { v: unknown[] }).v[2999]).toBeInstanceOf(RawString);
    expect(materialize(parsed)).toEqual(JSON.parse(body.toString()));
    // Scan slices, then one turn per REPLACE_SLICE_STRINGS long strings copied out, then one before the JSON.parse.
    expect(turns).toBe(
      Math.floor(body.length / SCAN_SLICE_BYTES) + Math.floor(3000 / REPLACE_SLICE_STRINGS) + 1,
    );
    await expect(parseJsonBodyAsync(Buffer.from('{"a": '), async () => {})).rejects.toThrow(/not valid JSON/);
  });
});

describe('vectors', () => {
  it('decodes per-row arrays, per-row base64, one flat array and one base64 string to the same floats', async () => {
    const rows = [
      [1, 2, 3],
      [4, 5, 6],
    ];
    const forms = [rows, rows.map(f32b64), rows.flat(), f32b64(rows.flat())];
    for (const form of forms) {
      const batch = readVectorColumn(form, 2, 'upsert_columns.vector', null, plainAllocator);
      await decodeVectors([batch], 1);
      expect(batch.dims).toBe(3);
      expect(Array.from(batch.data)).toEqual([1, 2, 3, 4, 5, 6]);
    }
    const raw = parseJsonBody(
      Buffer.from(JSON.stringify({ v: [f32b64(Array.from({ length: 100 }, (_, i) => i))] })),
    ) as {
      v: RawString[];
    };
    expect(raw.v[0]).toBeInstanceOf(RawString);
    const batch = readVectorColumn(raw.v, 1, 'v', 100, plainAllocator);
    await decodeVectors([batch]);
    expect(batch.data[99]).toBe(99);
  });

  it('null vectors are zeros marked missing; mismatched dimensions are a 400 naming the row', () => {
    const batch = readVectorColumn([[1, 2], null], 2, 'v', null, plainAllocator);
    expect(Array.from(batch.missing ?? [])).toEqual([0, 1]);
    expect(
      badRequest(() =>
        readVectorColumn(
          [
            [1, 2],
            [1, 2, 3],
          ],
          2,
          'upsert_columns.vector',
          null,
          plainAllocator,
        ),
      ),
    ).toBe('upsert_columns.vector[1]: expected 2 dimensions, got 3');
    expect(badRequest(() => readVectorColumn([1, 2, 3], 2, 'v', null, plainAllocator))).toMatch(
      /do not split into 2 vectors/,
    );
  });
});

describe('write requests', () => {
  it('rows and columns become columns; absent keys are undefined (patches leave them alone)', () => {
    const req = parseWriteRequest(
      {
        upsert_rows: [
          { id: 1, vector: [1, 0], a: 'x' },
          { id: 2, vector: [0, 1] },
        ],
        patch_columns: { id: [1], a: ['y'] },
        deletes: [3],
        distance_metric: 'cosine_distance',
        schema: { a: { type: 'string', filterable: false }, id: 'uint' },
      },
      ctx,
    );
    expect(req.upserts[0].ids).toEqual([1, 2]);
    expect(req.upserts[0].attributes.get('a')).toEqual(['x', undefined]);
    expect(req.upserts[0].vectors.get('vector')?.dims).toBe(2);
    expect(req.patches[0].attributes.get('a')).toEqual(['y']);
    expect(req.deletes).toEqual([3]);
    expect(req.idType).toBe('uint');
    expect(req.schema.get('a')).toMatchObject({ filterable: false });
  });

  it('full_text_search (true or its options), schema drop and sharding', () => {
    const req = parseWriteRequest(
      {
        schema: {
          t: { type: 'string', full_text_search: true },
          u: {
            type: '[]string',
            full_text_search: {
              language: 'german',
              stemming: true,
              remove_stopwords: false,
              case_sensitive: true,
              ascii_folding: true,
              tokenizer: 'pre_tokenized_array',
              k1: 2,
              b: 0.5,
              max_token_length: 10,
              index_prefixes: true,
            },
            filterable: true,
          },
          old: { drop: true },
          off: { type: 'string', full_text_search: false },
        },
        sharding: { num_shards: 3 },
      },
      ctx,
    );
    expect(req.schema.get('t')).toMatchObject({
      filterable: false,
      fullTextSearch: { language: 'english', tokenizer: 'word_v4', k1: 1.2, b: 0.75, removeStopwords: true },
    });
    expect(req.schema.get('u')).toMatchObject({
      filterable: true,
      fullTextSearch: {
        language: 'german',
        stemming: true,
        removeStopwords: false,
        caseSensitive: true,
        asciiFolding: true,
        tokenizer: 'pre_tokenized_array',
        k1: 2,
        b: 0.5,
        maxTokenLength: 10,
        indexPrefixes: true,
      },
    });
    expect(req.schema.get('off')?.fullTextSearch).toBeNull();
    expect(req.drops).toEqual(['old']);
    expect(req.numShards).toBe(3);
    expect(parseWriteRequest({ schema: { old: { drop: true } } }, ctx).drops).toEqual(['old']);
  });

  it('copy_from_namespace: a name, or the object the SDKs send with its default encryption', () => {
    expect(parseWriteRequest({ copy_from_namespace: 'a' }, ctx).copyFromNamespace).toBe('a');
    const copy = { source_namespace: 'a', dest_encryption: { mode: 'default' } };
    expect(parseWriteRequest({ copy_from_namespace: copy }, ctx).copyFromNamespace).toBe('a');
  });

  it.each([
    [{ upsert_rows: {} }, 'upsert_rows: expected an array of documents'],
    [{ upsert_rows: [{ a: 1 }] }, 'upsert_rows[0].id: every document needs an id'],
    [{ upsert_columns: { id: [1, 2], a: [1] } }, 'upsert_columns.a: has 1 values but id has 2'],
    [{ upsert_rows: [{ id: 1, $dist: 1 }] }, "upsert_rows[0].$dist: attribute names must not start with '$'"],
    [{ distance_metric: 'dot' }, 'distance_metric: expected "cosine_distance" or "euclidean_squared"'],
    [{ schema: { v: '[0]f32' } }, 'schema.v.type: unknown type "[0]f32"'],
    [{ schema: { a: { type: 'string', wat: 1 } } }, 'schema.a.wat: unknown schema option'],
    [{ schema: { a: { drop: true, filterable: true } } }, 'schema.a.filterable: drop cannot be combined'],
    [{ schema: { a: { drop: 'yes' } } }, 'schema.a.drop: must be true'],
    [{ schema: { id: { drop: true } } }, 'schema.id: the id cannot be dropped'],
    [{ schema: { a: 5 } }, 'schema.a: expected a type name, an object with "type", or {"drop": true}'],
    [
      { schema: { a: { type: 'string', full_text_search: 'yes' } } },
      'schema.a.full_text_search: expected true, false',
    ],
    [
      { schema: { a: { type: 'string', full_text_search: { stem: true } } } },
      'schema.a.full_text_search.stem: unknown option',
    ],
    [
      { schema: { a: { type: 'string', full_text_search: { stemming: 1 } } } },
      'schema.a.full_text_search.stemming: expected true or false',
    ],
    [
      { schema: { a: { type: 'string', full_text_search: { k1: -1 } } } },
      'schema.a.full_text_search.k1: expected a number of at least 0',
    ],
    [
      { schema: { a: { type: 'string', full_text_search: { b: 2 } } } },
      'schema.a.full_text_search.b: expected a number from 0 to 1',
    ],
    [
      { schema: { a: { type: 'string', full_text_search: { max_token_length: 0 } } } },
      'max_token_length: expected a whole number from 1 to 254',
    ],
    [
      { schema: { a: { type: 'string', full_text_search: { tokenizer: 'word_v9' } } } },
      'tokenizer: unknown tokenizer "word_v9"',
    ],
    [
      { schema: { a: { type: '[]int', full_text_search: true } } },
      'full_text_search: needs a string or []string attribute, not []int',
    ],
    [{ schema: { a: '{}f16' } }, 'schema.a.type: sparse vectors ({}f16) are not modelled'],
    [
      { schema: { v: { type: '[2]f32', ann: { late_interaction: true } } } },
      'schema.v.ann.late_interaction: needs a multi-vector',
    ],
    [{ schema: { v: { type: '[2]f32', ann: { metric: 'x' } } } }, 'schema.v.ann.metric: unknown field'],
    [{ sharding: { num_shards: 1.5 } }, 'sharding.num_shards: expected a whole number from 1 to 256'],
    [{ sharding: { num_shards: 2, replicas: 1 } }, 'sharding.replicas: unknown field'],
    [{ sharding: [2] }, 'sharding: expected {"num_shards": n}'],
    [{ encryption: { mode: 'customer-managed' } }, 'encryption.mode: only "default" is supported'],
    [{ disable_backpressure: 'yes' }, 'disable_backpressure: expected true or false'],
    // Fields of the copy that the emulator used to ignore.
    [
      { copy_from_namespace: { source_namespace: 'a', sourceNamespace: 'b' } },
      'copy_from_namespace.sourceNamespace: unknown field (it takes source_namespace, source_region, source_api_key, dest_encryption)',
    ],
    [
      { copy_from_namespace: { source_namespace: 'a', dest_encryption: 'x' } },
      'copy_from_namespace.dest_encryption: expected {"mode": "default"}, got "x"',
    ],
    [
      { copy_from_namespace: { source_namespace: 'a', dest_encryption: { mode: 'default', key: 'k' } } },
      'copy_from_namespace.dest_encryption.key: unknown field (only "mode" is supported)',
    ],
  ])('%j -> %s', (body, message) => {
    expect(badRequest(() => parseWriteRequest(body, ctx))).toContain(message);
  });
});

describe('query requests', () => {
  it('single and multi-query, with slots: kNN 2, aggregations 4, others 1', () => {
    const single = parseQueryRequest({ rank_by: ['v', 'kNN', [1, 2]], consistency: { level: 'eventual' } });
    expect(single).toMatchObject({ multi: false, consistency: 'eventual', queries: [{ topK: null }] });
    expect(querySlots(single)).toBe(2);
    const multi = parseQueryRequest({
      queries: [
        {
          rank_by: [
            ['a', 'asc'],
            ['b', 'desc'],
          ],
          top_k: 5,
        },
        { aggregate_by: { n: ['Count'] }, group_by: ['a'] },
      ],
    });
    expect(multi.queries[0].rankBy).toEqual({
      kind: 'order',
      keys: [
        { attr: 'a', desc: false },
        { attr: 'b', desc: true },
      ],
    });
    expect(querySlots(multi)).toBe(5);
  });

  it.each([
    [
      { rank_by: ['v', 'SparseKNN', { 1: 0.5 }] },
      'rank_by: SparseKNN ranking is not modelled by the emulator',
    ],
    [{ rank_by: ['a', 'up'] }, 'rank_by: unknown ordering "up"'],
    [{ top_k: 0 }, 'top_k: expected a whole number from 1 to 10000'],
    [{ top_k: 1, limit: 1 }, 'use top_k or limit, not both'],
    [
      { aggregate_by: { n: ['Count'] }, rank_by: ['a', 'asc'] },
      'aggregate_by: cannot be combined with rank_by',
    ],
    [{ group_by: ['a'] }, 'group_by: needs aggregate_by'],
    [{ queries: [{}], top_k: 3 }, 'top_k: not allowed beside "queries"'],
    [{ queries: [{ consistency: { level: 'strong' } }] }, 'queries[0].consistency: unknown field'],
    [
      { consistency: { level: 'sometimes' } },
      'consistency: expected {"level": "strong"} or {"level": "eventual"}',
    ],
    [{ rank_by: ['v', 'ANN', [[1], [2]]] }, 'multi-vector queries are not supported'],
    [{ rerank_by: ['RRF'] }, 'rerank_by: reranking with a model is not supported by the emulator'],
    [{ queries: [{}], rerank_by: ['RRF', { k: 1 }] }, 'rerank_by[1].k: unknown field'],
    [
      { queries: [{}], rerank_by: ['RRF', { weights: [0] }] },
      'rerank_by[1].weights: expected a list of positive',
    ],
    [
      { queries: [{}], rerank_by: ['RRF', { rank_constant: 1.5 }] },
      'rerank_by[1].rank_constant: expected a whole',
    ],
    [{ queries: [{}], rerank_by: ['RRF', 'x'] }, 'rerank_by[1]: expected {"rank_constant"'],
    [{ queries: [{}], rerank_by: ['Fuse'] }, 'rerank_by: expected ["RRF"]'],
    [{ queries: [{}], rerank_by: ['RRF'], limit: { total: 1, per: 1 } }, 'limit.per: unknown field'],
    [{ queries: [{}], rerank_by: ['RRF'], limit: 0 }, 'limit: expected a whole number from 1 to 10000'],
    [{ queries: [{}], rerank_by: ['RRF'], limit: 1, offset: -1 }, 'offset: expected a whole number from 0'],
    [
      { rank_by: ['v', 'ANN', ['Embed', 'hello']] },
      'rank_by[2]: server-side embedding (["Embed", ...]) is not implemented by the emulator; send the query vector',
    ],
  ])('%j -> %s', (body, message) => {
    expect(badRequest(() => parseQueryRequest(body))).toContain(message);
  });

  it('full-text rank expressions are told apart from orderings, then checked against the schema', () => {
    for (const rank_by of [
      ['text', 'BM25', 'hello'],
      ['Attribute', 'price'],
      ['Sum', [['text', 'BM25', 'a']]],
      ['Product', 2, ['text', 'BM25', 'a']],
      ['cat', 'Eq', 'a'],
      ['Not', ['cat', 'Eq', 'a']],
      ['Saturate', ['Attribute', 'n'], { midpoint: 1 }],
    ])
      expect(parseQueryRequest({ rank_by }).queries[0].rankBy).toEqual({
        kind: 'text',
        raw: rank_by,
        expr: null,
      });
    const fts = { language: 'english', stemming: true, removeStopwords: true, caseSensitive: false } as const;
    const textSchema: FilterSchema = {
      idType: 'uint',
      attribute: (name) =>
        name === 'text'
          ? {
              type: { kind: 'scalar', scalar: 'string' },
              filterable: false,
              declared: true,
              fullTextSearch: {
                ...fts,
                asciiFolding: false,
                tokenizer: 'word_v4',
                k1: 1.2,
                b: 0.75,
                maxTokenLength: 39,
                indexPrefixes: false,
              },
            }
          : schema.attribute(name),
    };
    const read = (rank_by: unknown) =>
      readQueryBody(Buffer.from(JSON.stringify({ rank_by })), textSchema).queries[0].rankBy;
    expect(read(['text', 'BM25', 'The Walruses swim', { last_as_prefix: true }])).toMatchObject({
      expr: { op: 'bm25', attr: 'text', query: { terms: ['walrus'], prefix: 'swim' } },
    });
    expect(read(['Product', ['text', 'BM25', 'a b'], 0.5])).toMatchObject({
      expr: { op: 'product', weight: 0.5, child: { op: 'bm25' } },
    });
    expect(read(['Product', [2, ['text', 'BM25', 'x']]])).toMatchObject({
      expr: { op: 'product', weight: 2 },
    });
    expect(
      read([
        'Max',
        [
          ['Attribute', 'n'],
          ['n', 'Gt', 1],
        ],
      ]),
    ).toMatchObject({
      expr: {
        op: 'max',
        children: [
          { op: 'attribute', attr: 'n' },
          { op: 'filter', filter: { op: 'Gt' } },
        ],
      },
    });
    for (const [rank_by, message] of [
      [['Saturate', ['Attribute', 'n'], {}], 'rank_by: Saturate is not modelled by the emulator'],
      [['Decay', ['Attribute', 'n'], {}], 'rank_by: Decay is not modelled'],
      [['Dist', ['Attribute', 'n'], 1], 'rank_by: Dist is not modelled'],
      [['n', 'BM25', 'x'], 'rank_by: attribute "n" has no full-text index'],
      [['text', 'BM25', 5], 'rank_by: invalid input 5 for rank_by field "text", expecting string'],
      [['text', 'BM25', 'x', { prefix: true }], 'rank_by[3]: unknown field "prefix"'],
      [['text', 'BM25', 'x', { last_as_prefix: 1 }], 'rank_by[3]: last_as_prefix expects true or false'],
      [['Sum', []], 'rank_by: Sum expects ["Sum", [expression, ...]]'],
      [['Sum', [['text', 'BM25']]], 'rank_by[1][0]: BM25 expects'],
      [['Product', 'x', ['text', 'BM25', 'a']], 'rank_by: Product expects ["Product", weight, expression]'],
      [['Attribute', 'text'], 'rank_by: Attribute ranks by numeric attributes'],
      [['Attribute', 1], 'rank_by: Attribute expects ["Attribute", "attribute name"]'],
    ] as const)
      expect(badRequest(() => read(rank_by))).toContain(message);
    expect(
      badRequest(() =>
        readQueryBody(
          Buffer.from(JSON.stringify({ queries: [{}, { rank_by: ['m', 'BM25', 'x'] }] })),
          textSchema,
        ),
      ),
    ).toContain('queries[1].rank_by: attribute "m" has no full-text index');
  });

  it('a multi-query with rerank_by: RRF parameters, the fused limit and offset', () => {
    const queries = [{ rank_by: ['a', 'asc'] }, { rank_by: ['b', 'asc'] }];
    expect(parseQueryRequest({ queries })).toMatchObject({ rerank: null, fusedLimit: null, fusedOffset: 0 });
    expect(parseQueryRequest({ queries, rerank_by: ['RRF'] })).toMatchObject({
      rerank: { rankConstant: 60, weights: [1, 1] },
    });
    expect(
      parseQueryRequest({
        queries,
        rerank_by: ['RRF', { rank_constant: 5, weights: [2, 0.5] }],
        limit: { total: 3 },
        offset: 2,
      }),
    ).toMatchObject({ rerank: { rankConstant: 5, weights: [2, 0.5] }, fusedLimit: 3, fusedOffset: 2 });
  });

  it('filters become trees checked against the schema, each sub-query in turn, after the rest of the body', () => {
    const body = (value: unknown) => Buffer.from(JSON.stringify(value));
    const single = readQueryBody(body({ rank_by: ['n', 'asc'], filters: ['n', 'Gte', 3] }), schema);
    expect(single.queries[0].filters).toEqual({
      op: 'Gte',
      attr: 'n',
      type: { kind: 'scalar', scalar: 'int' },
      operand: { kind: 'value', value: 3 },
    });
    const exact = readQueryBody(Buffer.from('{"filters":["id","In",[18446744073709551615]]}'), schema);
    expect(exact.queries[0].filters).toMatchObject({ operand: { value: [2n ** 64n - 1n] } });
    expect(readQueryBody(body({ rank_by: ['n', 'asc'] }), schema).queries[0].filters).toBeUndefined();
    expect(badRequest(() => readQueryBody(body({ filters: ['n', 'Eq', 'x'] }), schema))).toBe(
      'filter error in key `n`: type mismatch, Eq expects int, but got "x"',
    );
    // A sub-query's other fields are checked before any filter; sub-queries' filters in order, each as `filters`.
    const multi = (first: unknown, second: unknown) =>
      body({ queries: [{ filters: first }, { filters: second, top_k: 0 }] });
    expect(badRequest(() => readQueryBody(multi(['n', 'Eq', 'x'], ['n', 'Eq', 1]), schema))).toBe(
      'queries[1].top_k: expected a whole number from 1 to 10000, got 0',
    );
    expect(
      badRequest(() =>
        readQueryBody(body({ queries: [{ filters: ['n', 'Eq', 1] }, { filters: ['m'] }] }), schema),
      ),
    ).toBe('filters: expected a filter such as ["attr", "Eq", value], ["And", [...]] or ["Not", filter]');
  });

  it('a deeply nested offset is a 400 quoting its start, not a 500 (JSON.stringify ran out of stack)', () => {
    // Found by the fuzz suite (FUZZ_RUNS=50000 FUZZ_SEED=25462): offset is not depth-checked before its message.
    const body = `{"rank_by":["id","asc"],"top_k":1,"offset":${'['.repeat(9000)}1${']'.repeat(9000)}}`;
    expect(badRequest(() => parseQueryRequest(parseJsonBody(Buffer.from(body))))).toBe(
      `offset: expected a whole number from 0 to 10000, got ${'['.repeat(60)}...`,
    );
  });
});

describe('exact integers and bounded messages', () => {
  it('parses integer literals above 2^53 as BigInts only when asked, and never inside strings', () => {
    const text =
      '{"a":[9007199254740993,-18446744073709551615,1000000000000000,0.1234567890123456,1e300],"s":"12345678901234567890"}';
    const exact = parseJsonBody(Buffer.from(text), { exactIntegers: true }) as { a: unknown[]; s: string };
    expect(exact.a).toEqual([
      9007199254740993n,
      -18446744073709551615n,
      1000000000000000,
      0.1234567890123456,
      1e300,
    ]);
    expect(exact.s).toBe('12345678901234567890');
    expect((parseJsonBody(Buffer.from(text)) as { a: unknown[] }).a[0]).toBe(9007199254740992);
    // A leading zero stays invalid JSON in exact mode too.
    expect(
      badRequest(() => parseJsonBody(Buffer.from('[00000000000000001]'), { exactIntegers: true })),
    ).toMatch(/not valid JSON/);
  });

  it('keeps long object keys as keys (only values are left in the buffer)', () => {
    const key = 'k'.repeat(300);
    const parsed = parseJsonBody(Buffer.from(JSON.stringify({ [key]: 'v'.repeat(300) }))) as Record<
      string,
      unknown
    >;
    expect(Object.keys(parsed)).toEqual([key]);
    expect(parsed[key]).toBeInstanceOf(RawString);
  });

  it('refuses values nested deeper than MAX_JSON_DEPTH instead of overflowing the stack', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    expect(badRequest(() => materialize(JSON.parse(deep), 'upsert_rows[0].x'))).toBe(
      `upsert_rows[0].x: nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`,
    );
    const withLong = Buffer.from(`{"v":"${'A'.repeat(300)}","d":${deep}}`);
    expect(badRequest(() => parseJsonBody(withLong))).toMatch(/request body: nested deeper than 128/);
  });

  it('describes values for messages within bounds and writes BigInts as plain digits', () => {
    expect(describeJson(2n ** 64n - 1n)).toBe('18446744073709551615');
    expect(describeJson(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(describeJson(JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`), 10)).toBe('[[[[[[[[[[...');
    expect(describeJson({ a: 'x'.repeat(100) }, 12)).toBe('{"a":"xxxxxx...');
    expect(stringifyJson({ ids: [1, 2n ** 64n - 1n], s: 'n1' })).toBe(
      '{"ids":[1,18446744073709551615],"s":"n1"}',
    );
  });
});

describe('recall requests', () => {
  it('defaults, rank_by as the one query, and exact id filters', () => {
    expect(parseRecallRequest({})).toEqual({
      num: 25,
      topK: 10,
      filters: null,
      includeGroundTruth: false,
      rankBy: null,
    });
    const given = parseRecallRequest({
      rank_by: ['v', 'ANN', [1, 2]],
      num: null,
      include_ground_truth: true,
    });
    expect([
      given.num,
      given.includeGroundTruth,
      given.rankBy?.column,
      Array.from(given.rankBy?.vector ?? []),
    ]).toEqual([1, true, 'v', [1, 2]]);
    expect(
      readRecallBody(Buffer.from('{"filters":["id","Eq",18446744073709551615]}'), schema).filters,
    ).toEqual({
      op: 'Eq',
      attr: 'id',
      type: { kind: 'scalar', scalar: 'uint' },
      operand: { kind: 'value', value: 2n ** 64n - 1n },
    });
  });

  it.each([
    ['[]', 'request body: expected a JSON object'],
    ['{"queries":[]}', 'queries: unknown field in a recall request'],
    // A key that does not read as a name is quoted, so an empty one is still named.
    ['{"num":2,"":1}', '"": unknown field in a recall request'],
    ['{"a b":1}', '"a b": unknown field in a recall request'],
    ['{"rank_by":["v","ANN",[1]],"num":2}', 'num: rank_by gives the one query to measure, so num must be 1'],
    ['{"rank_by":["n","asc"]}', 'rank_by: recall is measured for a vector ranking'],
    ['{"top_k":0}', 'top_k: expected a whole number from 1 to 10000, got 0'],
    ['{"num":1.5}', 'num: expected a whole number from 1 to 1000, got 1.5'],
    ['{"include_ground_truth":1}', 'include_ground_truth: expected true or false, got 1'],
  ])('%s -> %s', (text, message) => {
    expect(badRequest(() => readRecallBody(Buffer.from(text), schema))).toContain(message);
  });
});

describe('rank_by an attribute named like a rank function', () => {
  it('["Attribute", "asc"] still orders by the attribute called Attribute', () => {
    expect(parseQueryRequest({ rank_by: ['Attribute', 'asc'] }).queries[0].rankBy).toEqual({
      kind: 'order',
      keys: [{ attr: 'Attribute', desc: false }],
    });
  });
});
