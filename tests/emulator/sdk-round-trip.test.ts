// The official TypeScript SDK against the emulator, unchanged but for its base URL: writes (rows and base64
// columns), ANN, filters, ordering, multi-query, metadata, list, delete, and the 400/404/429 paths as SDK errors.
import Turbopuffer, { BadRequestError, NotFoundError, RateLimitError } from '@turbopuffer/turbopuffer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactFactory } from './exact-vector-column';
import { b64, startTestEmulator, type TestEmulator } from './harness';

let emulator: TestEmulator;
let client: Turbopuffer;
let hold: { release: () => void } | null = null;

beforeAll(async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  hold = { release };
  // Indexing held: the "held" namespace's backlog stays put so the 429 path is deterministic.
  const engine = exactFactory({ beforePublish: () => gate });
  emulator = await startTestEmulator({ backlogLimitBytes: 200 }, engine.factory);
  // compression on: exercises gzip request bodies too.
  client = new Turbopuffer({ apiKey: 'tpuf_test', baseURL: emulator.url, maxRetries: 0, compression: true });
});

afterAll(async () => {
  hold?.release();
  await emulator.close();
});

describe('official SDK round trip', () => {
  it('writes rows and columns, then ANN, filters, ordering, multi-query and metadata', async () => {
    const ns = client.namespace('sdk-docs');
    const rows = await ns.write({
      upsert_rows: [
        { id: 1, vector: [1, 0, 0], color: 'red', size: 3 },
        { id: 2, vector: [0, 1, 0], color: 'blue', size: 5 },
      ],
      distance_metric: 'euclidean_squared',
      schema: { color: { type: 'string', filterable: true } },
    });
    expect(rows.rows_upserted).toBe(2);
    const cols = await ns.write({
      upsert_columns: {
        id: [3, 4],
        vector: [b64([0, 0, 1]), b64([1, 1, 0])],
        color: ['red', 'green'],
        size: [1, 9],
      },
    });
    expect(cols.rows_affected).toBe(2);

    const ann = await ns.query({
      rank_by: ['vector', 'ANN', [1, 0, 0]],
      top_k: 2,
      include_attributes: ['color'],
    });
    expect(ann.rows?.map((r) => [r.id, r.color])).toEqual([
      [1, 'red'],
      [4, 'green'],
    ]);
    expect(ann.rows?.[0].$dist).toBe(0);
    expect(ann.performance.server_total_ms).toBeGreaterThanOrEqual(0);

    const filtered = await ns.query({
      rank_by: ['size', 'desc'],
      filters: [
        'And',
        [
          ['color', 'In', ['red', 'green']],
          ['size', 'Gte', 2],
        ],
      ],
      top_k: 10,
    });
    expect(filtered.rows?.map((r) => r.id)).toEqual([4, 1]);

    const multi = await ns.multiQuery({
      queries: [
        { rank_by: ['vector', 'kNN', [0, 1, 0]], top_k: 1 },
        { aggregate_by: { count: ['Count'] }, group_by: ['color'] },
      ],
    });
    expect(multi.results[0].rows?.map((r) => r.id)).toEqual([2]);
    expect(multi.results[1].aggregation_groups).toEqual([
      { color: 'blue', count: 1 },
      { color: 'green', count: 1 },
      { color: 'red', count: 2 },
    ]);

    const meta = await ns.metadata();
    expect(meta.schema.vector).toEqual({ type: '[3]f32', ann: { distance_metric: 'euclidean_squared' } });
    expect(await ns.exists()).toBe(true);
    const recall = await ns.recall({ num: 1, top_k: 2 });
    expect(recall.avg_recall).toBe(1);
    expect((await ns.hintCacheWarm()).status).toBe('ACCEPTED');
  });

  it('lists namespaces across pages and deletes one', async () => {
    for (const name of ['sdk-list-a', 'sdk-list-b', 'sdk-list-c'])
      await client.namespace(name).write({ upsert_rows: [{ id: 1, n: 1 }] });
    const seen: string[] = [];
    for await (const summary of client.namespaces({ prefix: 'sdk-list-', page_size: 2 }))
      seen.push(summary.id);
    expect(seen).toEqual(['sdk-list-a', 'sdk-list-b', 'sdk-list-c']);
    await client.namespace('sdk-list-b').deleteAll();
    expect(await client.namespace('sdk-list-b').exists()).toBe(false);
    await expect(client.namespace('sdk-list-b').query({ rank_by: ['id', 'asc'] })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('surfaces 400 and 429 as the SDK error classes', async () => {
    const ns = client.namespace('sdk-errors');
    await expect(
      ns.write({
        upsert_rows: [
          { id: 1, n: 1 },
          { id: 1, n: 2 },
        ],
      }),
    ).rejects.toBeInstanceOf(BadRequestError);
    const held = client.namespace('sdk-held');
    await held.write({
      upsert_rows: [{ id: 1, vector: [1, 0], pad: 'x'.repeat(300) }],
      distance_metric: 'cosine_distance',
    });
    await expect(held.write({ upsert_rows: [{ id: 2, vector: [0, 1] }] })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    await expect(held.query({ rank_by: ['vector', 'ANN', [1, 0]] })).rejects.toBeInstanceOf(RateLimitError);
    const eventual = await held.query({
      rank_by: ['vector', 'ANN', [1, 0]],
      consistency: { level: 'eventual' },
    });
    expect(eventual.rows?.map((r) => r.id)).toEqual([1]);
  });
});
