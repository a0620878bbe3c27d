// The official TypeScript SDK (@turbopuffer/turbopuffer, the newest on npm) against real `bench emulator` processes,
// unchanged but for its base URL: every call it offers, each raw response checked against the type the SDK declares
// for it (sdk-types.ts), and the 400/404/429 paths as the SDK's error classes. branchFrom, which the emulator does
// not claim, must fail with a 400 naming the feature.
import Turbopuffer, {
  type APIError,
  BadRequestError,
  NotFoundError,
  RateLimitError,
} from '@turbopuffer/turbopuffer';
import { Namespace } from '@turbopuffer/turbopuffer/resources/namespaces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorProcess, startEmulatorProcess } from './emulator-process';
import { b64 } from './harness';
import { loadSdkTypes, type SdkTypes } from './sdk-types';

/** The type the SDK declares for each namespace call's response. */
const RESPONSE_TYPES = {
  branchFrom: 'NamespaceBranchFromResponse',
  copyFrom: 'NamespaceCopyFromResponse',
  deleteAll: 'NamespaceDeleteAllResponse',
  explainQuery: 'NamespaceExplainQueryResponse',
  hintCacheWarm: 'NamespaceHintCacheWarmResponse',
  metadata: 'NamespaceMetadata',
  multiQuery: 'NamespaceMultiQueryResponse',
  query: 'NamespaceQueryResponse',
  recall: 'NamespaceRecallResponse',
  schema: 'NamespaceSchemaResponse',
  updateMetadata: 'NamespaceMetadata',
  updateSchema: 'NamespaceUpdateSchemaResponse',
  write: 'NamespaceWriteResponse',
} as const;

// Fields the emulator serves that this SDK version does not declare: metadata's last_write_at (documented by
// turbopuffer's metadata reference), index.unindexed_rows and pinning.status.replicas (declared, and required, by
// the Python SDK 3.x), and the emulator's own emulator_* timings. The client_* performance fields are the SDK's own
// measurements, never on the wire.
const SERVED_BEYOND_SDK = new Set(['last_write_at', 'unindexed_rows', 'replicas']);
const FILLED_BY_SDK = /^client_/;
// GET .../schema spells unset options as null where the SDK's type has none: the SDK's own live test against the
// service expects `filterable: null, full_text_search: null` there.
const NULL_IN_SCHEMA_ROUTE = new Set(['filterable', 'full_text_search']);

let fast: EmulatorProcess;
let held: EmulatorProcess;
let client: Turbopuffer;
let heldClient: Turbopuffer;
let types: SdkTypes;
let lastBody: unknown;
const called = new Set<string>();

/** fetch that keeps the raw body of the last response for the type check. */
const recordingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const text = await response.clone().text();
  lastBody = text === '' ? null : JSON.parse(text);
  return response;
};

function conforms(typeName: string, body: unknown): void {
  expect(types.check(typeName, body), `${typeName}: ${JSON.stringify(body)}`).toEqual([]);
}

/** A namespace whose every call's raw response is checked against its declared type before the test sees it. */
function checked(sdk: Turbopuffer, name: string): Namespace {
  const ns = sdk.namespace(name);
  return new Proxy(ns, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'exists') called.add('exists');
      if (typeof property !== 'string' || !(property in RESPONSE_TYPES)) return value;
      const typeName = RESPONSE_TYPES[property as keyof typeof RESPONSE_TYPES];
      return async (...args: unknown[]) => {
        called.add(property);
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        conforms(typeName, lastBody);
        return result;
      };
    },
  });
}

/** The call must fail with `error`; its body is exactly turbopuffer's envelope. Returns the message. */
async function fails(error: new (...args: never[]) => APIError, call: Promise<unknown>): Promise<string> {
  const caught = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(caught).toBeInstanceOf(error);
  const body = (caught as APIError).error as { status: string; error: string };
  expect(Object.keys(body).sort()).toEqual(['error', 'status']);
  expect(body.status).toBe('error');
  return body.error;
}

const DOCS = [
  { id: 1, vector: [1, 0, 0], color: 'red', size: 3 },
  { id: 2, vector: [0, 1, 0], color: 'blue', size: 5 },
];

beforeAll(async () => {
  // `held` indexes 1 byte per second under a 200-byte backlog limit: its namespace stays updating and over the limit.
  [fast, held] = await Promise.all([
    startEmulatorProcess(),
    startEmulatorProcess(['--index-throughput', '1', '--backlog-limit', '200']),
  ]);
  types = loadSdkTypes({
    mayAdd: (n) => SERVED_BEYOND_SDK.has(n) || n.startsWith('emulator_'),
    mayOmit: (n) => FILLED_BY_SDK.test(n),
    mayBeNull: (n) => NULL_IN_SCHEMA_ROUTE.has(n),
  });
  const options = { apiKey: 'tpuf_test', maxRetries: 0, fetch: recordingFetch };
  // compression on: exercises gzip request bodies too.
  client = new Turbopuffer({ ...options, baseURL: fast.url, compression: true });
  heldClient = new Turbopuffer({ ...options, baseURL: held.url });
});

afterAll(async () => {
  await Promise.all([fast?.stop(), held?.stop()]);
});

describe('official TypeScript SDK round trip', () => {
  it('the type check refuses what the SDK does not declare', () => {
    const updating = { status: 'updating', unindexed_bytes: 5 };
    const meta = {
      approx_logical_bytes: 0,
      approx_row_count: 0,
      created_at: 'x',
      updated_at: 'x',
      encryption: { mode: 'default' },
      schema: { id: { type: 'uint' } },
      index: updating,
    };
    expect(types.check('NamespaceMetadata', meta)).toEqual([]);
    expect(types.check('NamespaceMetadata', { ...meta, index: { status: 'updating' } })).toEqual([
      'NamespaceMetadata.index.unindexed_bytes: missing (the SDK declares it required)',
    ]);
    expect(types.check('NamespaceMetadata', { ...meta, index: { status: 'stale' } })).toHaveLength(1);
    expect(types.check('NamespaceMetadata', { ...meta, surprise: 1 })).toEqual([
      'NamespaceMetadata.surprise: not declared by the SDK',
    ]);
    expect(types.check('NamespaceDeleteAllResponse', { status: 'OK', emulator_x: 1 })).toEqual([]);
    expect(
      types.check('NamespaceQueryResponse', {
        rows: [{ id: 1, anything: [1] }],
        billing: { billable_logical_bytes_queried: 1, billable_logical_bytes_returned: '1' },
        performance: {
          approx_namespace_size: 1,
          cache_hit_ratio: 1,
          cache_temperature: 'hot',
          exhaustive_search_count: 0,
          query_execution_ms: 1,
          server_total_ms: 1,
        },
      }),
    ).toEqual(['NamespaceQueryResponse.billing.billable_logical_bytes_returned: expected a number, got "1"']);
  });

  it('writes rows, columns, patches, deletes and filter writes', async () => {
    const ns = checked(client, 'ts-writes');
    const rows = await ns.write({
      upsert_rows: DOCS,
      distance_metric: 'euclidean_squared',
      schema: { color: { type: 'string', filterable: true } },
      return_affected_ids: true,
    });
    expect([rows.rows_upserted, rows.upserted_ids, rows.deleted_ids]).toEqual([2, [1, 2], undefined]);
    const cols = await ns.write({
      upsert_columns: {
        id: [3, 4],
        vector: [b64([0, 0, 1]), b64([1, 1, 0])],
        color: ['red', 'green'],
        size: [1, 9],
      },
    });
    expect(cols.rows_affected).toBe(2);
    const patched = await ns.write({
      patch_rows: [{ id: 1, size: 4 }],
      deletes: [3],
      patch_by_filter: { filters: ['color', 'Eq', 'green'], patch: { size: 8 } },
    });
    expect([patched.rows_patched, patched.rows_deleted]).toEqual([2, 1]);
    const byFilter = await ns.write({ delete_by_filter: ['size', 'Gte', 8] });
    expect([byFilter.rows_deleted, byFilter.rows_remaining]).toEqual([1, false]);
    const lookup = await ns.query({ rank_by: ['id', 'asc'], include_attributes: ['size'] });
    expect(lookup.rows?.map((r) => [r.id, r.size])).toEqual([
      [1, 4],
      [2, 5],
    ]);
  });

  it('ANN, kNN, filters, ordering, aggregations, multi-query and explain', async () => {
    const ns = checked(client, 'ts-queries');
    await ns.write({ upsert_rows: DOCS, distance_metric: 'euclidean_squared' });
    await ns.write({ upsert_rows: [{ id: 3, vector: [0, 0, 1], color: 'red', size: 1 }] });
    const ann = await ns.query({
      rank_by: ['vector', 'ANN', [1, 0, 0]],
      top_k: 2,
      include_attributes: ['color'],
    });
    expect(ann.rows?.map((r) => [r.id, r.$dist, r.color])).toEqual([
      [1, 0, 'red'],
      [2, 2, 'blue'],
    ]);
    expect(Number.isInteger(ann.performance.server_total_ms)).toBe(true);
    expect(ann.performance.approx_namespace_size).toBe(3);
    const filtered = await ns.query({
      rank_by: ['size', 'desc'],
      filters: [
        'And',
        [
          ['color', 'In', ['red', 'blue']],
          ['size', 'Gte', 2],
        ],
      ],
      top_k: 10,
      consistency: { level: 'eventual' },
    });
    expect(filtered.rows?.map((r) => r.id)).toEqual([2, 1]);
    const encoded = await ns.query({
      rank_by: ['id', 'asc'],
      top_k: 1,
      include_attributes: true,
      vector_encoding: 'base64',
    });
    expect(encoded.rows?.[0].vector).toBe(b64([1, 0, 0]));
    const counted = await ns.query({ aggregate_by: { n: ['Count'], total: ['Sum', 'size'] } });
    expect(counted.aggregations).toEqual({ n: 3, total: 9 });
    const multi = await ns.multiQuery({
      queries: [
        { rank_by: ['vector', 'kNN', [0, 1, 0]], top_k: 1 },
        { aggregate_by: { count: ['Count'] }, group_by: ['color'] },
      ],
    });
    expect(multi.results[0].rows?.map((r) => r.id)).toEqual([2]);
    expect(multi.results[1].aggregation_groups).toEqual([
      { color: 'blue', count: 1 },
      { color: 'red', count: 2 },
    ]);
    expect((await ns.explainQuery({ rank_by: ['vector', 'ANN', [1, 0, 0]] })).plan_text).toContain(
      'ANN index',
    );
  });

  it('metadata, schema, recall, cache hints, copies, listing and deletion', async () => {
    const ns = checked(client, 'ts-meta');
    await ns.write({
      upsert_rows: DOCS,
      distance_metric: 'euclidean_squared',
      schema: { color: { type: 'string', filterable: true } },
    });
    let meta = await ns.metadata();
    for (let i = 0; i < 500 && meta.index.status !== 'up-to-date'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      meta = await ns.metadata();
    }
    expect([meta.index.status, meta.approx_row_count]).toEqual(['up-to-date', 2]);
    expect(meta.schema.vector).toEqual({ type: '[3]f32', ann: { distance_metric: 'euclidean_squared' } });
    expect(meta.schema.color).toEqual({ type: 'string', filterable: true });
    expect((await ns.schema()).color.filterable).toBe(true);
    expect(
      (await ns.updateSchema({ schema: { size: { type: 'int', filterable: false } } })).size.filterable,
    ).toBe(false);
    const pinned = await ns.updateMetadata({ pinning: { replicas: 1 } });
    expect([pinned.approx_row_count, pinned.pinning?.replicas]).toEqual([2, 1]);
    expect(await ns.exists()).toBe(true);
    expect((await ns.recall({ num: 1, top_k: 2 })).avg_recall).toBe(1);
    const given = await ns.recall({
      rank_by: ['vector', 'ANN', [0, 1, 0]],
      top_k: 1,
      include_ground_truth: true,
    });
    expect(given.ground_truth?.map((g) => [g.query_vector, g.nearest_neighbors.map((r) => r.id)])).toEqual([
      [[0, 1, 0], [2]],
    ]);
    expect((await ns.hintCacheWarm()).status).toBe('ACCEPTED');
    expect(
      (await checked(client, 'ts-meta-copy').copyFrom({ source_namespace: 'ts-meta' })).rows_upserted,
    ).toBe(2);

    for (const name of ['ts-list-a', 'ts-list-b', 'ts-list-c'])
      await checked(client, name).write({ upsert_rows: [{ id: 1, n: 1 }] });
    const seen: string[] = [];
    called.add('namespaces');
    for await (const summary of client.namespaces({ prefix: 'ts-list-', page_size: 2 })) {
      conforms('NamespaceSummary', summary);
      seen.push(summary.id);
    }
    expect(seen).toEqual(['ts-list-a', 'ts-list-b', 'ts-list-c']);
    const doomed = checked(client, 'ts-list-b');
    expect((await doomed.deleteAll()).status).toBe('OK');
    expect(await doomed.exists()).toBe(false);
    await fails(NotFoundError, doomed.query({ rank_by: ['id', 'asc'] }));
    await fails(NotFoundError, doomed.metadata());
  });

  it('400, 404 and 429 arrive as the SDK error classes with the error envelope', async () => {
    const ns = checked(client, 'ts-errors');
    await ns.write({ upsert_rows: [{ id: 1, n: 1 }] });
    const duplicate = ns.write({
      upsert_rows: [
        { id: 1, n: 1 },
        { id: 1, n: 2 },
      ],
    });
    expect(await fails(BadRequestError, duplicate)).toContain('appears more than once');
    expect(await fails(BadRequestError, ns.query({ rank_by: ['id', 'asc'], top_k: 1, limit: 1 }))).toBe(
      'top_k: use top_k or limit, not both',
    );
    expect(await fails(BadRequestError, ns.branchFrom({ source_namespace: 'ts-errors' }))).toContain(
      'branching',
    );
    await fails(NotFoundError, checked(client, 'ts-missing').query({ rank_by: ['id', 'asc'] }));

    const throttled = checked(heldClient, 'ts-held');
    await throttled.write({
      upsert_rows: [{ id: 1, vector: [1, 0], pad: 'x'.repeat(300) }],
      distance_metric: 'cosine_distance',
    });
    const meta = await throttled.metadata();
    expect(meta.index).toMatchObject({ status: 'updating', unindexed_rows: 1 });
    // write() retries 6 times unless told otherwise, honouring retry-after-ms (minutes at 1 byte/s).
    await fails(
      RateLimitError,
      throttled.write({ upsert_rows: [{ id: 2, vector: [0, 1] }] }, { maxRetries: 0 }),
    );
    await fails(RateLimitError, throttled.query({ rank_by: ['vector', 'ANN', [1, 0]] }));
    const eventual = await throttled.query({
      rank_by: ['vector', 'ANN', [1, 0]],
      consistency: { level: 'eventual' },
    });
    expect(eventual.rows?.map((r) => r.id)).toEqual([1]);
  });

  it('made every call the SDK offers', () => {
    const offered = Object.getOwnPropertyNames(Namespace.prototype).filter((n) => n !== 'constructor');
    expect(offered.filter((n) => !called.has(n))).toEqual([]);
    expect(called.has('namespaces')).toBe(true);
  });
});
