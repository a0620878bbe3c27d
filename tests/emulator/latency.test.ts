// The latency model over HTTP (in-process, real timers): a strong query waits for its freshness round trip and an
// eventual one does not, and the waiting costs no CPU; a write is acknowledged and visible only once its group
// commit is durable; cold namespaces pay the load, warmed by queries and hints, cooled by purge_cache and bypassed
// by disable_cache; GET /_emulator/settings names every setting.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LatencyModel, parseFlags, SERVICE_LATENCY } from '../../emulator/config';
import type { Consistency } from '../../lib/turbopuffer-wire';
import { startTestEmulator, type TestEmulator } from './harness';

let emulator: TestEmulator | null = null;
afterEach(async () => {
  await emulator?.close();
  emulator = null;
});

const NONE: LatencyModel = {
  strongReadMs: 0,
  commitIntervalMs: 0,
  objectPutMs: 0,
  objectGetMs: 0,
  coldRoundTrips: 0,
};

async function start(latency: Partial<LatencyModel>): Promise<TestEmulator> {
  emulator = await startTestEmulator({ latency: { ...NONE, ...latency } });
  const write = await emulator.post('/v2/namespaces/docs', {
    upsert_rows: [
      { id: 1, vector: [1, 0] },
      { id: 2, vector: [0, 1] },
    ],
    distance_metric: 'cosine_distance',
  });
  expect(write.status).toBe(200);
  return emulator;
}

const query = (e: TestEmulator, consistency: Consistency, extra: Record<string, unknown> = {}) =>
  e.post('/v2/namespaces/docs/query', {
    rank_by: ['vector', 'ANN', [1, 0]],
    top_k: 1,
    consistency: { level: consistency },
    ...extra,
  });

describe('latency model', () => {
  it('a strong query pays the freshness round trip, an eventual one does not; the wait costs no CPU', async () => {
    const e = await start({ strongReadMs: 400 });
    const strong = await query(e, 'strong');
    expect(strong.body.performance.emulator_server_total_ms).toBeGreaterThanOrEqual(400);
    expect(strong.body.performance.emulator_query_execution_ms).toBeGreaterThanOrEqual(400);
    const eventual = await query(e, 'eventual');
    expect(eventual.body.performance.emulator_server_total_ms).toBeLessThan(400);
    // Eight strong queries at once each wait 400 ms: a wait that spun would burn at least that much CPU; this one
    // uses a fraction of it (the process also runs the HTTP client).
    const cpu = process.cpuUsage();
    const wall = performance.now();
    const replies = await Promise.all(Array.from({ length: 8 }, () => query(e, 'strong')));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(performance.now() - wall).toBeGreaterThanOrEqual(400);
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(200);
  });

  it('acknowledges a write once its group commit is durable; until then no query or metadata sees it', async () => {
    const e = await start({ commitIntervalMs: 0, objectPutMs: 800 });
    const ns = e.registry.require('docs');
    const before = ns.metadata().approx_row_count;
    let acknowledged = false;
    const write = e
      .post('/v2/namespaces/docs', { upsert_rows: [{ id: 3, vector: [1, 0.1] }] })
      .then((reply) => {
        acknowledged = true;
        return reply;
      });
    // Applied (in the store) but not committed: invisible to strong and eventual reads and to metadata.
    await vi.waitFor(() => expect(ns.store.rowCount).toBe(3), { timeout: 1000, interval: 2 });
    const ids = async (level: Consistency) =>
      (
        await e.post('/v2/namespaces/docs/query', { rank_by: ['id', 'asc'], consistency: { level } })
      ).body.rows.map((r: { id: number }) => r.id);
    expect(await ids('strong')).toEqual([1, 2]);
    expect(await ids('eventual')).toEqual([1, 2]);
    expect((await e.get('/v2/namespaces/docs/metadata')).body.index).toEqual({ status: 'up-to-date' });
    expect(acknowledged).toBe(false);
    const reply = await write;
    expect(reply.status).toBe(200);
    expect(reply.body.performance.emulator_server_total_ms).toBeGreaterThanOrEqual(800);
    expect(await ids('strong')).toEqual([1, 2, 3]);
    expect(before).toBe(2);
  });

  it('writes that arrive while a commit is in flight ride the next one together', async () => {
    const e = await start({ commitIntervalMs: 400, objectPutMs: 50 });
    // The seed write committed just now: these five wait for the next commit, 400 ms after it started.
    const started = performance.now();
    const replies = await Promise.all(
      [10, 11, 12, 13, 14].map((id) =>
        e.post('/v2/namespaces/docs', { upsert_rows: [{ id, vector: [0, 1] }] }),
      ),
    );
    const times = replies.map((r) => r.body.performance.emulator_server_total_ms as number);
    expect(replies.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(50);
    // One commit: the five answers come within a few milliseconds of each other.
    expect(Math.max(...times) - Math.min(...times)).toBeLessThan(100);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('a cold namespace pays the load; a query warms it; purge_cache cools it; disable_cache reads around it', async () => {
    const e = await start({ objectGetMs: 50, coldRoundTrips: 4 });
    const hot = await query(e, 'eventual');
    expect(hot.body.performance).toMatchObject({ cache_temperature: 'hot', cache_hit_ratio: 1 });
    expect((await e.get('/v1/namespaces/docs/_debug/warm_cache')).status).toBe(409);

    expect((await e.get('/v1/namespaces/docs/_debug/purge_cache')).body).toEqual({ status: 'OK' });
    const cold = await query(e, 'eventual');
    expect(cold.body.performance).toMatchObject({ cache_temperature: 'cold', cache_hit_ratio: 0 });
    expect(cold.body.performance.emulator_server_total_ms).toBeGreaterThanOrEqual(200);
    expect(cold.body.rows.map((r: { id: number }) => r.id)).toEqual([1]);
    expect((await query(e, 'eventual')).body.performance.cache_temperature).toBe('hot');

    const bypass = await query(e, 'eventual', { disable_cache: true });
    expect(bypass.body.performance).toMatchObject({ cache_temperature: 'cold', cache_hit_ratio: 0 });
    expect(bypass.body.performance.emulator_server_total_ms).toBeGreaterThanOrEqual(200);
    expect((await query(e, 'eventual')).body.performance.cache_temperature).toBe('hot');
    expect((await query(e, 'eventual', { disable_cache: 'yes' })).body.error).toBe(
      'disable_cache: expected true or false, got "yes"',
    );
  });

  it('hint_cache_warm starts the load and answers at once; _debug/warm_cache answers once it is hot', async () => {
    const e = await start({ objectGetMs: 100, coldRoundTrips: 3 });
    await e.get('/v1/namespaces/docs/_debug/purge_cache');
    const hinted = performance.now();
    const hint = await e.get('/v1/namespaces/docs/hint_cache_warm');
    expect(hint.status).toBe(202);
    expect(performance.now() - hinted).toBeLessThan(300);
    const partly = await query(e, 'eventual');
    expect(partly.body.performance.cache_temperature).not.toBe('cold');
    expect(performance.now() - hinted).toBeGreaterThanOrEqual(300);

    await e.get('/v1/namespaces/docs/_debug/purge_cache');
    const warming = performance.now();
    expect((await e.get('/v1/namespaces/docs/_debug/warm_cache')).body).toEqual({ status: 'OK' });
    expect(performance.now() - warming).toBeGreaterThanOrEqual(300);
    expect((await query(e, 'eventual')).body.performance).toMatchObject({ cache_temperature: 'hot' });
  });

  it('GET /_emulator/settings names the latency model and its flags, and never the API key', async () => {
    emulator = await startTestEmulator({ latency: SERVICE_LATENCY, apiKey: 'secret-key' });
    const reply = await emulator.request('GET', '/_emulator/settings', undefined, {
      authorization: 'Bearer secret-key',
    });
    expect(reply.body.settings).toMatchObject({
      api_key_required: true,
      latency_model: {
        model: 'service',
        strong_read_ms: 12,
        commit_interval_ms: 1000,
        object_put_ms: 100,
        object_get_ms: 63,
        cold_round_trips: 4,
      },
    });
    expect(reply.body.flags.slice(-10)).toEqual([
      '--strong-read-latency',
      '12ms',
      '--commit-interval',
      '1000ms',
      '--object-put-latency',
      '100ms',
      '--object-get-latency',
      '63ms',
      '--cold-round-trips',
      '4',
    ]);
    // The flags start an equal emulator.
    expect(parseFlags(reply.body.flags)).toMatchObject({ latency: SERVICE_LATENCY });
    expect(JSON.stringify(reply.body)).not.toContain('secret-key');
  });
});
