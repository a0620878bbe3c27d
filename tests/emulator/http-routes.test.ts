// Every route and status code over HTTP: response shapes, the error envelope, and the 400/401/404/405/413/429 paths.
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exactFactory } from './exact-vector-column';
import { b64, startTestEmulator, type TestEmulator } from './harness';

let emulator: TestEmulator | null = null;
afterEach(async () => {
  await emulator?.close();
  emulator = null;
});

async function seeded(overrides = {}, factory = exactFactory().factory) {
  emulator = await startTestEmulator(overrides, factory);
  const write = await emulator.post('/v2/namespaces/docs', {
    upsert_rows: [
      { id: 1, vector: [1, 0], cat: 'a', price: 10, tags: ['x', 'y'] },
      { id: 2, vector: [0.9, 0.1], cat: 'b', price: 5, tags: ['y'] },
      { id: 3, vector: [0, 1], cat: 'a', price: 7, tags: [] },
      { id: 4, vector: [-1, 0], cat: 'c' },
    ],
    distance_metric: 'cosine_distance',
  });
  expect(write.status).toBe(200);
  return emulator;
}

function expectError(
  reply: { status: number; body: { status: string; error: string } },
  status: number,
  text: RegExp,
) {
  expect(reply.status).toBe(status);
  expect(reply.body.status).toBe('error');
  expect(reply.body.error).toMatch(text);
}

describe('POST /v2/namespaces/:ns (write)', () => {
  it('answers with counts, billing and performance', async () => {
    const e = await seeded();
    const reply = await e.post('/v2/namespaces/docs', {
      upsert_columns: { id: [5, 6], vector: [b64([0.5, 0.5]), b64([0.2, 0.8])], cat: ['a', null] },
      patch_rows: [
        { id: 1, price: 11 },
        { id: 99, price: 1 },
      ],
      deletes: [4, 100],
      return_affected_ids: true,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: 'OK',
      rows_affected: 4,
      rows_upserted: 2,
      rows_patched: 1,
      rows_deleted: 1,
      upserted_ids: [5, 6],
      patched_ids: [1],
      deleted_ids: [4],
    });
    expect(reply.body.billing.billable_logical_bytes_written).toBeGreaterThan(0);
    // Whole milliseconds as the SDKs declare them, beside the emulator's precise figure.
    const { server_total_ms: whole, emulator_server_total_ms: precise } = reply.body.performance;
    expect(Number.isInteger(whole)).toBe(true);
    expect(whole).toBe(Math.floor(precise));
  });

  it('400 for malformed JSON, unknown fields, duplicate ids, wrong dimensions and type mismatches', async () => {
    const e = await seeded();
    expectError(await e.post('/v2/namespaces/docs', '{"upsert_rows": ['), 400, /not valid JSON/);
    expectError(await e.post('/v2/namespaces/docs', { upsert_rowz: [] }), 400, /upsert_rowz: unknown field/);
    expectError(
      await e.post('/v2/namespaces/docs', {
        upsert_rows: [
          { id: 7, cat: 'a' },
          { id: 7, cat: 'b' },
        ],
      }),
      400,
      /id 7 appears more than once/,
    );
    expectError(
      await e.post('/v2/namespaces/docs', { upsert_rows: [{ id: 7, vector: [1, 2, 3] }] }),
      400,
      /expected 2 dimensions, got 3/,
    );
    expectError(
      await e.post('/v2/namespaces/docs', { upsert_rows: [{ id: 7, price: 'cheap' }] }),
      400,
      /type mismatch for attribute price/,
    );
    expectError(
      await e.post('/v2/namespaces/docs', { upsert_rows: [{ id: 'seven' }] }),
      400,
      /upsert_rows\[0\].id: expected an integer id from 0 to 18446744073709551615, got "seven"/,
    );
    expectError(
      await e.post('/v2/namespaces/docs', { patch_rows: [{ id: 1, vector: [1, 0] }] }),
      400,
      /cannot be patched/,
    );
    expectError(
      await e.post('/v2/namespaces/docs', { schema: { cat: 'int' } }),
      400,
      /schema.cat: the type of an existing attribute cannot change/,
    );
    expectError(
      await e.post('/v2/namespaces/fresh', { upsert_rows: [{ id: 1, vector: [1, 0] }] }),
      400,
      /distance_metric: required/,
    );
    // Nothing of a refused write is applied.
    const count = await e.post('/v2/namespaces/docs/query', { aggregate_by: { n: ['Count'] } });
    expect(count.body.aggregations).toEqual({ n: 4 });
  });

  it('a refused write does not create the namespace it names; a successful one beside it does', async () => {
    emulator = await startTestEmulator();
    const refused = [
      { upsert_rows: [{ id: 1 }, { id: 1 }] },
      { upsert_rows: [{ id: 1, vector: 'not a vector' }] },
      { deletes: [-1] },
      {},
    ];
    for (const body of refused) expect((await emulator.post('/v2/namespaces/never', body)).status).toBe(400);
    expect((await emulator.post('/v1/namespaces/never/schema', { n: { type: 'nonsense' } })).status).toBe(
      400,
    );
    expect((await emulator.post('/v2/namespaces/never', { copy_from_namespace: 'missing' })).status).toBe(
      404,
    );
    expect((await emulator.get('/v2/namespaces/never/metadata')).status).toBe(404);
    expect((await emulator.get('/v1/namespaces/never/schema')).status).toBe(404);
    expect((await emulator.get('/v1/namespaces')).body.namespaces).toEqual([]);
    // A refused and an accepted write racing on a new name: the accepted one creates it.
    const [bad, good] = await Promise.all([
      emulator.post('/v2/namespaces/race', { upsert_rows: [{ id: 1 }, { id: 1 }] }),
      emulator.post('/v2/namespaces/race', { upsert_rows: [{ id: 2 }] }),
    ]);
    expect([bad.status, good.status]).toEqual([400, 200]);
    expect((await emulator.get('/v1/namespaces')).body.namespaces).toEqual([{ id: 'race' }]);
    const rows = await emulator.post('/v2/namespaces/race/query', { rank_by: ['id', 'asc'] });
    expect(rows.body.rows).toEqual([{ id: 2 }]);
  });

  it('delete_by_filter, patch_by_filter and conditional writes', async () => {
    const e = await seeded();
    const del = await e.post('/v2/namespaces/docs', { delete_by_filter: ['cat', 'Eq', 'a'] });
    expect(del.body).toMatchObject({ rows_affected: 2, rows_deleted: 2, rows_remaining: false });
    const patch = await e.post('/v2/namespaces/docs', {
      patch_by_filter: { filters: ['cat', 'In', ['b', 'c']], patch: { price: 1 } },
    });
    expect(patch.body).toMatchObject({ rows_patched: 2 });
    const cond = await e.post('/v2/namespaces/docs', {
      upsert_rows: [
        { id: 2, vector: [1, 1], cat: 'b', price: 0 },
        { id: 4, vector: [1, 1], cat: 'c', price: 9 },
      ],
      upsert_condition: ['price', 'Lt', { $ref_new: 'price' }],
    });
    expect(cond.body.rows_upserted).toBe(1);
    const rows = await e.post('/v2/namespaces/docs/query', {
      rank_by: ['id', 'asc'],
      include_attributes: ['price'],
    });
    expect(rows.body.rows).toEqual([
      { id: 2, price: 1 },
      { id: 4, price: 9 },
    ]);
    expectError(
      await e.post('/v2/namespaces/docs', { delete_by_filter: ['cat', 'Near', 'a'] }),
      400,
      /unknown operator "Near"/,
    );
  });

  it('accepts gzip bodies and copy_from_namespace', async () => {
    const e = await seeded();
    const body = gzipSync(JSON.stringify({ upsert_rows: [{ id: 9, vector: [0, 1] }] }));
    const reply = await e.request('POST', '/v2/namespaces/docs', body, { 'content-encoding': 'gzip' });
    expect(reply.status).toBe(200);
    const copy = await e.post('/v2/namespaces/copy', { copy_from_namespace: 'docs' });
    expect(copy.body.rows_upserted).toBe(5);
    const q = await e.post('/v2/namespaces/copy/query', {
      rank_by: ['vector', 'kNN', [1, 0]],
      top_k: 1,
      include_attributes: true,
    });
    expect(q.body.rows[0]).toMatchObject({ id: 1, cat: 'a', price: 10, tags: ['x', 'y'], vector: [1, 0] });
  });

  it('413 over the body limit', async () => {
    emulator = await startTestEmulator({ maxBodyBytes: 1000 });
    const rows = Array.from({ length: 100 }, (_, i) => ({ id: i, text: 'padding' }));
    expectError(
      await emulator.post('/v2/namespaces/big', { upsert_rows: rows }),
      413,
      /exceeds the 1000 byte limit/,
    );
  });
});

describe('POST /v2/namespaces/:ns/query', () => {
  it('ANN rows carry $dist in ascending order and the requested attributes', async () => {
    const e = await seeded();
    const reply = await e.post('/v2/namespaces/docs/query', {
      rank_by: ['vector', 'ANN', [1, 0]],
      top_k: 3,
      include_attributes: ['cat'],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.rows.map((r: { id: number }) => r.id)).toEqual([1, 2, 3]);
    expect(reply.body.rows[0].$dist).toBeCloseTo(0, 6);
    expect(reply.body.rows[0].cat).toBe('a');
    expect(reply.body.performance).toMatchObject({
      approx_namespace_size: 4,
      cache_temperature: 'hot',
      cache_hit_ratio: 1,
    });
    expect(reply.body.billing.billable_logical_bytes_queried).toBe(256_000_000);
  });

  it('filters, multi-key ordering, exclude_attributes and base64 vectors', async () => {
    const e = await seeded();
    const ordered = await e.post('/v2/namespaces/docs/query', {
      rank_by: [
        ['cat', 'asc'],
        ['price', 'desc'],
      ],
      filters: [
        'Or',
        [
          ['tags', 'Contains', 'y'],
          ['price', 'Lt', 8],
        ],
      ],
      top_k: 10,
    });
    expect(ordered.body.rows).toEqual([{ id: 1 }, { id: 3 }, { id: 2 }, { id: 4 }]);
    const excl = await e.post('/v2/namespaces/docs/query', {
      rank_by: ['id', 'asc'],
      top_k: 1,
      exclude_attributes: ['tags', 'price'],
      vector_encoding: 'base64',
    });
    expect(excl.body.rows).toEqual([{ id: 1, cat: 'a', vector: b64([1, 0]) }]);
  });

  it('aggregations, group_by and multi-query', async () => {
    const e = await seeded();
    const groups = await e.post('/v2/namespaces/docs/query', {
      aggregate_by: { n: ['Count'], total: ['Sum', 'price'] },
      group_by: ['cat'],
    });
    expect(groups.body.aggregation_groups).toEqual([
      { cat: 'a', n: 2, total: 17 },
      { cat: 'b', n: 1, total: 5 },
      { cat: 'c', n: 1, total: 0 },
    ]);
    const multi = await e.post('/v2/namespaces/docs/query?stainless_overload=multiQuery', {
      queries: [
        { rank_by: ['vector', 'ANN', [0, 1]], top_k: 1 },
        { aggregate_by: { n: ['Count'] }, filters: ['cat', 'Eq', 'a'] },
      ],
      consistency: { level: 'eventual' },
    });
    expect(multi.body.results).toEqual([
      { rows: [{ id: 3, $dist: expect.any(Number) }] },
      { aggregations: { n: 2 } },
    ]);
  });

  it('400 for unknown operators, filter type mismatches, bad top_k and wrong query dimensions; 404 for unknown namespaces', async () => {
    const e = await seeded();
    expectError(
      await e.post('/v2/namespaces/docs/query', { rank_by: ['id', 'asc'], filters: ['cat', 'Like', 'a'] }),
      400,
      /filter error in key `cat`: unknown operator "Like"/,
    );
    expectError(
      await e.post('/v2/namespaces/docs/query', {
        rank_by: ['id', 'asc'],
        filters: ['tags', 'ContainsAny', [1]],
      }),
      400,
      /filter error in key `tags`: type mismatch, ContainsAny expects \[\]string/,
    );
    expectError(
      await e.post('/v2/namespaces/docs/query', { rank_by: ['id', 'asc'], top_k: 10_001 }),
      400,
      /top_k/,
    );
    expectError(
      await e.post('/v2/namespaces/docs/query', { rank_by: ['vector', 'ANN', [1, 0, 0]] }),
      400,
      /query vector has 3 dimensions, vector has 2/,
    );
    expectError(
      await e.post('/v2/namespaces/nope/query', { rank_by: ['id', 'asc'] }),
      404,
      /namespace 'nope' was not found/,
    );
  });

  it('429 after waiting 800 ms for one of 16 slots (kNN takes 2)', async () => {
    let open!: () => void;
    const blocked = new Promise<void>((resolve) => {
      open = resolve;
    });
    const engine = exactFactory({ beforeSearch: () => blocked });
    const e = await seeded({ querySlots: 3, queryWaitMs: 150 }, engine.factory);
    const knn = e.post('/v2/namespaces/docs/query', { rank_by: ['vector', 'kNN', [1, 0]] });
    const ann = e.post('/v2/namespaces/docs/query', { rank_by: ['vector', 'ANN', [1, 0]] });
    // The third query must find all 3 slots taken: wait until both hold theirs (a fixed sleep lost that race under
    // load, and the third query then got a slot).
    const gate = e.registry.require('docs').gate;
    await vi.waitFor(() => expect(gate.inUse).toBe(3), { timeout: 10_000, interval: 5 });
    const started = performance.now();
    const third = await e.post('/v2/namespaces/docs/query', { rank_by: ['vector', 'ANN', [1, 0]] });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expectError(third, 429, /too many concurrent queries/);
    expect(Number(third.headers.get('retry-after-ms'))).toBeGreaterThan(0);
    open();
    expect((await knn).status).toBe(200);
    expect((await ann).status).toBe(200);
  });
});

describe('namespace routes', () => {
  it('metadata is the same on v1 and v2; 404 when unknown', async () => {
    const e = await seeded();
    const v1 = await e.get('/v1/namespaces/docs/metadata');
    const v2 = await e.get('/v2/namespaces/docs/metadata');
    expect(v1.body).toEqual(v2.body);
    expect(v2.body.schema).toMatchObject({
      id: { type: 'uint' },
      vector: { type: '[2]f32', ann: { distance_metric: 'cosine_distance' } },
      cat: { type: 'string' },
      tags: { type: '[]string' },
    });
    expect(v2.body.encryption).toEqual({ mode: 'default' });
    expectError(await e.get('/v2/namespaces/nope/metadata'), 404, /not found/);
  });

  it('PATCH metadata: a deeply nested pinning.replicas is a 400 quoting its start, not a 500', async () => {
    const e = await seeded();
    const deep = `${'['.repeat(9000)}1${']'.repeat(9000)}`;
    const reply = await e.request(
      'PATCH',
      '/v1/namespaces/docs/metadata',
      `{"pinning":{"replicas":${deep}}}`,
    );
    expectError(reply, 400, /^pinning\.replicas: expected a whole number of at least 1, got \[{60}\.\.\.$/);
  });

  it('lists namespaces by prefix with cursor pagination, and deletes them', async () => {
    emulator = await startTestEmulator();
    for (const name of ['a-1', 'a-2', 'a-3', 'b-1'])
      expect((await emulator.post(`/v2/namespaces/${name}`, { upsert_rows: [{ id: 1 }] })).status).toBe(200);
    const first = await emulator.get('/v1/namespaces?prefix=a-&page_size=2');
    expect(first.body).toEqual({ namespaces: [{ id: 'a-1' }, { id: 'a-2' }], next_cursor: 'a-2' });
    const second = await emulator.get(
      `/v1/namespaces?prefix=a-&page_size=2&cursor=${first.body.next_cursor}`,
    );
    expect(second.body).toEqual({ namespaces: [{ id: 'a-3' }] });
    expectError(await emulator.get('/v1/namespaces?page_size=0'), 400, /page_size/);
    for (const size of ['1e3', '0x10', '%205', '2.0'])
      expectError(
        await emulator.get(`/v1/namespaces?page_size=${size}`),
        400,
        /^page_size: expected a whole number from 1 to 1000, got "/,
      );
    const deleted = await emulator.request('DELETE', '/v2/namespaces/a-1');
    expect(deleted).toMatchObject({ status: 200, body: { status: 'OK' } });
    expectError(
      await emulator.post('/v2/namespaces/a-1/query', { rank_by: ['id', 'asc'] }),
      404,
      /not found/,
    );
    expectError(await emulator.request('DELETE', '/v2/namespaces/a-1'), 404, /not found/);
    expectError(await emulator.post('/v2/namespaces/bad name', {}), 400, /namespace name/);
  });

  it('schema GET and POST; GET is 404 for unknown namespaces', async () => {
    const e = await seeded();
    const schema = await e.get('/v1/namespaces/docs/schema');
    expect(schema.body.vector).toEqual({
      type: '[2]f32',
      filterable: null,
      full_text_search: null,
      ann: true,
    });
    expect(schema.body.cat).toEqual({ type: 'string', filterable: true, full_text_search: null });
    const updated = await e.post('/v1/namespaces/docs/schema', {
      cat: { type: 'string', filterable: false },
      when: 'datetime',
    });
    expect(updated.body.cat.filterable).toBe(false);
    expect(updated.body.when.type).toBe('datetime');
    expectError(
      await e.post('/v2/namespaces/docs/query', { rank_by: ['id', 'asc'], filters: ['cat', 'Eq', 'a'] }),
      400,
      /not filterable/,
    );
    expectError(await e.get('/v1/namespaces/nope/schema'), 404, /not found/);
  });

  it('hint_cache_warm is 202; warm_cache and purge_cache are tolerated; recall and explain_query answer', async () => {
    const e = await seeded();
    expect(await e.get('/v1/namespaces/docs/hint_cache_warm')).toMatchObject({
      status: 202,
      body: { status: 'ACCEPTED', message: 'cache warm hint accepted' },
    });
    expect((await e.get('/v1/namespaces/docs/_debug/warm_cache')).status).toBe(200);
    expect((await e.post('/v1/namespaces/docs/_debug/purge_cache', {})).status).toBe(200);
    const recall = await e.post('/v1/namespaces/docs/_debug/recall', { num: 1, top_k: 2 });
    expect(recall.body).toEqual({ avg_recall: 1, avg_exhaustive_count: 2, avg_ann_count: 2 });
    const explain = await e.post('/v2/namespaces/docs/explain_query', { rank_by: ['vector', 'ANN', [1, 0]] });
    expect(explain.body.plan_text).toMatch(/ANN index \+ exhaustive scan/);
    const stats = await e.get('/_emulator/stats?reset=true');
    expect(stats.body.rss_bytes).toBeGreaterThan(0);
    expect(stats.body.event_loop_delay.max_ms).toBeGreaterThanOrEqual(0);
    // In-process test emulator: no engine workers, so the request thread and the rest of the process.
    if (process.platform === 'linux')
      expect(Object.keys(stats.body.thread_cpu_ms).sort()).toEqual(['main', 'other']);
    else expect(stats.body.thread_cpu_ms).toBeNull();
  });

  it("recall takes the SDKs' rank_by as its one query and refuses what it would otherwise ignore", async () => {
    const e = await seeded();
    const recall = (body: unknown) => e.post('/v1/namespaces/docs/_debug/recall', body);
    const one = await recall({ rank_by: ['vector', 'ANN', [0, 1]], top_k: 2, include_ground_truth: true });
    expect(one.status).toBe(200);
    expect([one.body.avg_recall, one.body.avg_ann_count, one.body.avg_exhaustive_count]).toEqual([1, 2, 2]);
    expect(one.body.ground_truth).toHaveLength(1);
    expect(one.body.ground_truth[0].query_vector).toEqual([0, 1]);
    // The given vector's neighbours, not a sampled stored vector's: [0, 1] is nearest to 3, then 2.
    expect(one.body.ground_truth[0].nearest_neighbors.map((r: { id: number }) => r.id)).toEqual([3, 2]);
    const filtered = await recall({
      rank_by: ['vector', 'kNN', [1, 0]],
      top_k: 3,
      filters: ['cat', 'Eq', 'a'],
    });
    expect(filtered.body).toEqual({ avg_recall: 1, avg_exhaustive_count: 2, avg_ann_count: 2 });

    expectError(
      await recall({ rank_by: ['vector', 'ANN', [0, 1]], num: 3 }),
      400,
      /^num: rank_by gives the one query to measure, so num must be 1 or omitted, got 3$/,
    );
    expectError(
      await recall({ rank_by: ['price', 'asc'] }),
      400,
      /^rank_by: recall is measured for a vector/,
    );
    expectError(
      await recall({ rank_by: ['vector', 'ANN', [1, 0, 0]] }),
      400,
      /^rank_by: query vector has 3 dimensions, vector has 2$/,
    );
    expectError(
      await recall({ num: 1, queries: [[1, 0]] }),
      400,
      /^queries: unknown field in a recall request \(it takes num, top_k, filters, include_ground_truth, rank_by\)$/,
    );
    expectError(await recall([]), 400, /^request body: expected a JSON object$/);
    expectError(
      await recall({ include_ground_truth: 'yes' }),
      400,
      /^include_ground_truth: expected true or false, got "yes"$/,
    );
    expectError(await recall({ num: 0 }), 400, /^num: expected a whole number from 1 to 1000, got 0$/);
  });

  it('async copy_from_namespace refuses any other field by its name, quoted when it does not read as one', async () => {
    const e = await seeded();
    const start = (body: unknown) => e.post('/v2/namespaces/copy/async', body);
    expectError(
      await start({ copy_from_namespace: 'docs', upsert_rows: [] }),
      400,
      /^upsert_rows: only copy_from_namespace runs asynchronously; send other writes to POST \/v2\/namespaces\/:ns$/,
    );
    // The fuzz suite's find: an empty key made the message start ": only ...", naming nothing.
    expectError(await start({ '': {} }), 400, /^"": only copy_from_namespace runs asynchronously/);
    expectError(await start({ 'a b': 1 }), 400, /^"a b": only copy_from_namespace runs asynchronously/);
    expect((await e.get('/v1/namespaces')).body.namespaces).toEqual([{ id: 'docs' }]);
  });

  it('/_emulator/settings names the version and every setting that shapes a run', async () => {
    const e = await seeded({
      backlogLimitBytes: 6 * 2 ** 20,
      indexBytesPerSecond: 512 * 1024,
      indexBurstBytes: 3 * 2 ** 20,
    });
    const reply = await e.get('/_emulator/settings');
    expect(reply.status).toBe(200);
    expect(reply.body.settings).toEqual({
      backlog_limit_bytes: 6 * 2 ** 20,
      eventual_tail_limit_bytes: 128 * 2 ** 20,
      index_bytes_per_second: 512 * 1024,
      index_burst_bytes: 3 * 2 ** 20,
      max_body_bytes: 512 * 2 ** 20,
      max_inflight_bytes: 2 ** 30,
      query_slots: 16,
      query_wait_ms: 800,
      durable: false,
      api_key_required: false,
      latency_model: { model: 'none' },
    });
    expect(reply.body.flags).toEqual([
      '--backlog-limit',
      '6291456',
      '--eventual-tail-limit',
      '134217728',
      '--index-throughput',
      '524288',
      '--index-burst',
      '3145728',
      '--max-inflight-bytes',
      '1073741824',
      '--latency-model',
      'none',
    ]);
    expect(reply.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('401 without the configured key, 404 and 405 for unknown endpoints and methods', async () => {
    emulator = await startTestEmulator({ apiKey: 'tpuf_secret' });
    expectError(await emulator.get('/v1/namespaces'), 401, /API key/);
    expectError(
      await emulator.request('GET', '/v1/namespaces', undefined, { authorization: 'Bearer nope' }),
      401,
      /API key/,
    );
    expect(
      (await emulator.request('GET', '/v1/namespaces', undefined, { authorization: 'Bearer tpuf_secret' }))
        .status,
    ).toBe(200);
    const auth = { authorization: 'Bearer tpuf_secret' };
    expectError(await emulator.request('GET', '/v3/whatever', undefined, auth), 404, /no such endpoint/);
    const wrong = await emulator.request('PUT', '/v2/namespaces/x', {}, auth);
    expectError(wrong, 405, /PUT is not allowed/);
    expect(wrong.headers.get('allow')).toBe('POST, DELETE');
    expect(emulator.logs.join('\n')).not.toContain('tpuf_secret');
  });
});
