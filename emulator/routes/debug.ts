// Cache and recall endpoints: hint_cache_warm (202, starts loading a cold namespace), the official benchmark's
// _debug/warm_cache (loads it and answers once hot; 409 when it already was) and _debug/purge_cache (cold again), the
// cache as namespace/cache.ts models it; and _debug/recall (ANN vs exact on sampled stored vectors).
import type { EmulatorInfo, EmulatorLatencySettings } from '../../lib/emulator-info';
import { buildProvenance } from '../../lib/versions';
import { ApiError } from '../api-error';
import type { EmulatorConfig } from '../config';
import { filterBitset } from '../filters/candidates';
import { processStats } from '../process/stats';
import { planView } from '../query/plan';
import { projectRow } from '../query/project';
import { rankByVector } from '../query/rank';
import { hasBit } from '../vector/bitset';
import { seededRandom } from '../vector/random';
import { readRecallBody } from '../wire/recall-request';
import type { Reply, RouteContext } from './context';

export async function hintCacheWarmRoute(ctx: RouteContext): Promise<Reply> {
  ctx.registry.require(ctx.params.ns).cache.warm();
  return { status: 202, body: { status: 'ACCEPTED', message: 'cache warm hint accepted' } };
}

/** GET /_emulator/stats[?reset=true]: emulator-only process figures (not part of turbopuffer's API). */
export async function emulatorStatsRoute(ctx: RouteContext): Promise<Reply> {
  return { body: processStats(ctx.query.get('reset') === 'true') };
}

/** GET /_emulator/settings: the emulator's version and settings, which each result records (lib/emulator-info.ts). */
export async function emulatorSettingsRoute(ctx: RouteContext): Promise<Reply> {
  return { body: emulatorInfo(ctx.registry.config) };
}

function emulatorInfo(c: EmulatorConfig): EmulatorInfo {
  const p = buildProvenance();
  const pace = Number.isFinite(c.indexBytesPerSecond) ? c.indexBytesPerSecond : null;
  return {
    version: p.bench,
    commit: p.commit,
    dirty: p.dirty,
    settings: {
      backlog_limit_bytes: c.backlogLimitBytes,
      eventual_tail_limit_bytes: c.eventualTailLimitBytes,
      index_bytes_per_second: pace,
      index_burst_bytes: c.indexBurstBytes,
      max_body_bytes: c.maxBodyBytes,
      max_inflight_bytes: c.maxInflightBytes,
      query_slots: c.querySlots,
      query_wait_ms: c.queryWaitMs,
      durable: c.dataDir !== null,
      api_key_required: c.apiKey !== null,
      latency_model: latencySettings(c),
    },
    flags: [
      '--backlog-limit',
      String(c.backlogLimitBytes),
      '--eventual-tail-limit',
      String(c.eventualTailLimitBytes),
      '--index-throughput',
      pace === null ? 'unlimited' : String(pace),
      ...(c.indexBurstBytes > 0 ? ['--index-burst', String(c.indexBurstBytes)] : []),
      '--max-inflight-bytes',
      String(c.maxInflightBytes),
      ...latencyFlags(c),
    ],
  };
}

function latencySettings({ latency: l }: EmulatorConfig): EmulatorLatencySettings {
  if (!l) return { model: 'none' };
  return {
    model: 'service',
    strong_read_ms: l.strongReadMs,
    commit_interval_ms: l.commitIntervalMs,
    object_put_ms: l.objectPutMs,
    object_get_ms: l.objectGetMs,
    cold_round_trips: l.coldRoundTrips,
  };
}

function latencyFlags({ latency: l }: EmulatorConfig): string[] {
  if (!l) return ['--latency-model', 'none'];
  return [
    '--strong-read-latency',
    `${l.strongReadMs}ms`,
    '--commit-interval',
    `${l.commitIntervalMs}ms`,
    '--object-put-latency',
    `${l.objectPutMs}ms`,
    '--object-get-latency',
    `${l.objectGetMs}ms`,
    '--cold-round-trips',
    String(l.coldRoundTrips),
  ];
}

export async function warmCacheRoute(ctx: RouteContext): Promise<Reply> {
  const { cache } = ctx.registry.require(ctx.params.ns);
  // tpufbench reads 409 as "already warm"; without a latency model everything is always in memory: plain OK.
  if (cache.modelled && cache.temperature === 'hot')
    throw new ApiError(409, 'the namespace cache is already warm');
  await cache.warmed();
  return { body: { status: 'OK' } };
}

export async function purgeCacheRoute(ctx: RouteContext): Promise<Reply> {
  ctx.registry.require(ctx.params.ns).cache.purge();
  return { body: { status: 'OK' } };
}

export async function recallRoute(ctx: RouteContext): Promise<Reply> {
  const ns = ctx.registry.require(ctx.params.ns);
  const req = readRecallBody(await ctx.body(), ns.schema);
  const column = req.rankBy?.column ?? ns.schema.vectorColumns()[0];
  const slot = column ? ns.vectors.get(column) : undefined;
  const release = await ns.gate.acquire(2);
  try {
    const view = planView(ns, 'strong');
    const allow =
      req.filters === null
        ? undefined
        : filterBitset(req.filters, {
            rows: view.rows,
            indexedRows: view.indexedRows,
            dead: view.dead,
            index: ns.attributeIndex,
            source: ns.store.source,
          });
    // The queries: rank_by's one vector (rankByVector checks its column and dimensions), or stored vectors sampled.
    const queries: Float32Array[] = [];
    if (req.rankBy) queries.push(req.rankBy.vector);
    else if (slot) {
      const live = [...ns.store.liveRows.values()].filter((r) => r < view.rows && !hasBit(slot.missing, r));
      // Seeded by the row count, so repeated recall calls on unchanged data sample the same rows.
      const random = seededRandom(live.length);
      for (let i = 0; i < req.num && live.length > 0; i++)
        queries.push(slot.column.get(live[Math.floor(random() * live.length)]));
    }
    if (!column || queries.length === 0) {
      const empty: Record<string, unknown> = { avg_recall: 1, avg_exhaustive_count: 0, avg_ann_count: 0 };
      if (req.includeGroundTruth) empty.ground_truth = [];
      return { body: empty };
    }
    let recall = 0;
    let annCount = 0;
    let exactCount = 0;
    const truth: Record<string, unknown>[] = [];
    for (const vector of queries) {
      const mode = req.rankBy?.mode ?? 'ann';
      const ann = await rankByVector(ns, view, { kind: 'vector', mode, column, vector }, req.topK, allow);
      const exact = await rankByVector(
        ns,
        view,
        { kind: 'vector', mode: 'knn', column, vector },
        req.topK,
        allow,
      );
      const expected = new Set(exact.hits.map((h) => h.row));
      recall += expected.size === 0 ? 1 : ann.hits.filter((h) => expected.has(h.row)).length / expected.size;
      annCount += ann.hits.length;
      exactCount += exact.hits.length;
      if (req.includeGroundTruth)
        truth.push({
          query_vector: Array.from(vector),
          nearest_neighbors: exact.hits.map((h) => projectRow(ns, h.row, [column], true, 'float', h.dist)),
        });
    }
    const n = queries.length;
    const out: Record<string, unknown> = {
      avg_recall: recall / n,
      avg_exhaustive_count: exactCount / n,
      avg_ann_count: annCount / n,
    };
    if (req.includeGroundTruth) out.ground_truth = truth;
    return { body: out };
  } finally {
    release();
  }
}
