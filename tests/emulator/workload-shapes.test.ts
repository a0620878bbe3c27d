// The request shapes of turbopuffer's published benchmark workloads (docs/turbopuffer-api.md §7), each sent to the
// emulator with the answer the service documents: the setup writes (text attributes with full-text search, optionally
// with prefix indexing; f16 vector columns; UUID ids; a declared filterable string; disable_backpressure), the waits
// before measuring (indexing up to date, cache warm), and the queries (BM25 alone or fused with ANN by RRF, type-ahead
// BM25 with a matching token filter, ANN and kNN single and multi, eventual and strong, with and without the cache).
// Written here in bench's own terms from the shapes alone; none of the tool's files is kept in this repository.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './harness';

let emu: TestEmulator;
beforeAll(async () => {
  // The latency model with tiny waits: cache temperatures are modelled (disable_cache reads cold), writes stay quick.
  emu = await startTestEmulator({
    latency: { strongReadMs: 0, commitIntervalMs: 1, objectPutMs: 1, objectGetMs: 1, coldRoundTrips: 2 },
  });
});
afterAll(async () => {
  await emu.close();
});

const WORDS = ['walrus', 'tusk', 'marine', 'arctic', 'ice', 'fox', 'dog', 'quick', 'brown', 'lazy'];
/** A deterministic text of 8 words for document i. */
const text = (i: number) =>
  Array.from({ length: 8 }, (_, k) => WORDS[(i * 7 + k * 3 + k * k) % WORDS.length]).join(' ');
const vector = (i: number, dims: number) =>
  Array.from({ length: dims }, (_, k) => Math.sin(i * 13 + k) + 1.5);

async function ok(path: string, body?: unknown, method = 'POST') {
  const reply = await emu.request(method, path, body);
  expect(reply.status, `${path} ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body;
}

/** Setup as the workloads do it: several upsert batches, each repeating the schema, then wait for indexing. */
async function setup(ns: string, docs: object[], extra: object) {
  for (let at = 0; at < docs.length; at += 20)
    await ok(`/v2/namespaces/${ns}`, {
      upsert_rows: docs.slice(at, at + 20),
      disable_backpressure: true,
      ...extra,
    });
  for (;;) {
    const md = await ok(`/v2/namespaces/${ns}/metadata`, undefined, 'GET');
    if (md.index.status === 'up-to-date') return md;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Cache gates: warm (409 when already warm is what the tool expects too), then queries report a hot cache. */
async function warm(ns: string) {
  const reply = await emu.request('GET', `/v1/namespaces/${ns}/_debug/warm_cache`);
  expect([200, 409]).toContain(reply.status);
  expect((await emu.request('GET', `/v1/namespaces/${ns}/hint_cache_warm`)).status).toBe(202);
}

describe('text and hybrid workloads', () => {
  const docs = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, vector: vector(i, 8), text: text(i) }));

  beforeAll(async () => {
    // Text with vectors: an f16 ANN column and a full-text attribute, cosine distance.
    const md = await setup('shape-hybrid', docs, {
      distance_metric: 'cosine_distance',
      schema: { vector: { type: '[8]f16', ann: true }, text: { type: 'string', full_text_search: true } },
    });
    expect(md.approx_row_count).toBe(60);
    expect(md.schema.vector).toEqual({ type: '[8]f16', ann: { distance_metric: 'cosine_distance' } });
    expect(md.schema.text.full_text_search.tokenizer).toBe('word_v4');
    // Text only, no distance metric.
    await setup(
      'shape-text',
      docs.map(({ id, text }) => ({ id, text })),
      {
        schema: { text: { type: 'string', full_text_search: true } },
      },
    );
    await warm('shape-hybrid');
    await warm('shape-text');
  });

  it('BM25 as the one sub-query of an eventual multi-query; single BM25 hot and with the cache disabled', async () => {
    const multi = await ok('/v2/namespaces/shape-hybrid/query', {
      queries: [{ top_k: 10, rank_by: ['text', 'BM25', 'walrus ice tusk'] }],
      consistency: { level: 'eventual' },
    });
    expect(multi.results).toHaveLength(1);
    const rows = multi.results[0].rows;
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(row.$dist).toBeGreaterThan(0);
    expect(multi.performance.cache_temperature).toBe('hot');
    const single = await ok('/v2/namespaces/shape-text/query', {
      top_k: 10,
      rank_by: ['text', 'BM25', 'walrus ice tusk'],
    });
    expect(single.rows.map((r: { id: number }) => r.id)).toEqual(rows.map((r: { id: number }) => r.id));
    const cold = await ok('/v2/namespaces/shape-text/query', {
      top_k: 10,
      rank_by: ['text', 'BM25', 'walrus ice tusk'],
      disable_cache: true,
    });
    expect(cold.rows).toEqual(single.rows);
    expect(cold.performance.cache_temperature).toBe('cold');
  });

  it('BM25 and ANN fused by rerank_by ["RRF"], eventual', async () => {
    const body = {
      queries: [
        { top_k: 10, rank_by: ['text', 'BM25', 'quick brown fox'] },
        { top_k: 10, rank_by: ['vector', 'ANN', vector(7, 8)] },
      ],
      rerank_by: ['RRF'],
      consistency: { level: 'eventual' },
    };
    const fused = await ok('/v2/namespaces/shape-hybrid/query', body);
    expect(fused.results).toHaveLength(1);
    const plain = await ok('/v2/namespaces/shape-hybrid/query', { ...body, rerank_by: undefined });
    const score = new Map<number, number>();
    for (const result of plain.results)
      result.rows.forEach((row: { id: number }, rank: number) => {
        score.set(row.id, (score.get(row.id) ?? 0) + 1 / (61 + rank));
      });
    const want = [...score].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    expect(fused.results[0].rows.map((r: { id: number }) => r.id)).toEqual(want.map(([id]) => id));
  });
});

describe('type-ahead workload', () => {
  it('UUID ids, prefix-indexed text; BM25 with last_as_prefix and the same text as a ContainsAnyToken filter', async () => {
    const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    await setup(
      'shape-prefix',
      Array.from({ length: 40 }, (_, i) => ({ id: uuid(i), text: text(i) })),
      { schema: { id: 'uuid', text: { type: 'string', full_text_search: { index_prefixes: true } } } },
    );
    await warm('shape-prefix');
    for (const q of ['wal', 'quick br', 'marine arctic i', 'l']) {
      const reply = await ok('/v2/namespaces/shape-prefix/query', {
        top_k: 30,
        rank_by: ['text', 'BM25', q, { last_as_prefix: true }],
        filters: ['text', 'ContainsAnyToken', q, { last_as_prefix: true }],
      });
      const words = q.split(' ');
      const prefix = words.pop() as string;
      const matching = Array.from({ length: 40 }, (_, i) => i).filter((i) =>
        text(i)
          .split(' ')
          .some((w) => words.includes(w) || w.startsWith(prefix)),
      );
      expect(reply.rows.length, q).toBe(Math.min(30, matching.length));
      for (const row of reply.rows) expect(row.id).toMatch(/^00000000-0000-4000-8000-/);
    }
  });
});

describe('vector workloads', () => {
  beforeAll(async () => {
    const docs = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, vector: vector(i, 12) }));
    // Vectors only; and vectors with a declared filterable string that no document sets.
    await setup('shape-vec', docs, { distance_metric: 'cosine_distance' });
    await setup('shape-vec-attr', docs, {
      distance_metric: 'cosine_distance',
      schema: { attr: { type: 'string', filterable: true } },
    });
    await warm('shape-vec');
    await emu.request('GET', '/v1/namespaces/shape-vec-attr/_debug/purge_cache');
  });

  it('ANN single, as an eventual one-query multi-query, and with the cache disabled', async () => {
    const q = vector(3, 12);
    const ann = await ok('/v2/namespaces/shape-vec-attr/query', { top_k: 10, rank_by: ['vector', 'ANN', q] });
    expect(ann.rows[0]).toEqual({ id: 4, $dist: expect.closeTo(0, 5) });
    expect(ann.performance.cache_temperature).not.toBe('hot'); // purged: the first query pays for a load
    const multi = await ok('/v2/namespaces/shape-vec/query', {
      queries: [{ top_k: 10, rank_by: ['vector', 'ANN', q] }],
      consistency: { level: 'eventual' },
    });
    expect(multi.results[0].rows.map((r: { id: number }) => r.id)).toEqual(
      ann.rows.map((r: { id: number }) => r.id),
    );
    const uncached = await ok('/v2/namespaces/shape-vec/query', {
      top_k: 10,
      rank_by: ['vector', 'ANN', q],
      disable_cache: true,
    });
    expect(uncached.performance).toMatchObject({ cache_temperature: 'cold', cache_hit_ratio: 0 });
  });

  it('kNN with the match-all id filter: single, uncached, and eight at once', async () => {
    const knn = (i: number) => ({
      top_k: 10,
      rank_by: ['vector', 'kNN', vector(i, 12)],
      filters: ['id', 'Gte', 0],
    });
    const single = await ok('/v2/namespaces/shape-vec/query', knn(5));
    expect(single.rows).toHaveLength(10);
    expect(single.rows[0].id).toBe(6);
    expect((await ok('/v2/namespaces/shape-vec/query', { ...knn(5), disable_cache: true })).rows).toEqual(
      single.rows,
    );
    const eight = await ok('/v2/namespaces/shape-vec/query', {
      queries: Array.from({ length: 8 }, (_, i) => knn(i)),
    });
    expect(eight.results.map((r: { rows: { id: number }[] }) => r.rows[0].id)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });
});
