// The probe scenario's iteration (PROBE_RATE a second): write one probe, then read it every PROBE_INTERVAL_MS, by id
// and by ANN at both consistencies, until every read kind saw it or PROBE_TIMEOUT_S passed; record what each kind
// saw, and for eventual reads how far the first sighting fell outside the window indexing progress predicts. The
// namespace's metadata is read right before and after the write (where the probe sits in the log, and the backlog
// that decides its band: ./bands.ts probeBand) and once a second while eventual reads wait. A probe VU iterates
// only every PROBE_TIMEOUT_S or so, too seldom to follow the band machine as the other VUs do.
import { sleep } from 'k6';
import exec from 'k6/execution';
import { bucketTag, type SeriesClock, seriesClock } from '../time-series';
import type { TurbopufferClient } from '../turbopuffer-client';
import { base64, float32LeBytes, rowBytes } from '../vectors';

import { bandsDurationMs, probeBand, scenariosDurationMs } from './bands';
import type { FreshnessConfig } from './config';
import {
  pointBacklog,
  pointLag,
  probeFirstRead,
  probeLag,
  probeLagError,
  probeNeverSeen,
  probePartial,
  probeRecentRecall,
  probesWritten,
  writeAck,
  writeErrors,
} from './metrics';
import {
  annReadResult,
  type IndexProgress,
  idReadResult,
  ProbeWatch,
  probeIds,
  probeVectors,
  READS,
  type ReadKind,
  type ReadResult,
  readConsistency,
  readMethod,
  visibilityError,
} from './probe';
import type { SetupData } from './setup-data';

interface Position {
  time: number;
  /**
   * approx_logical_bytes, which indexing moves (docs/turbopuffer-api.md §4): on a namespace of fresh upserts, how far
   * the index has reached in the log; plus index.unindexed_bytes (0 when up to date), where the log ends.
   */
  logical: number | null;
  unindexed: number;
}

export function makeProber(config: FreshnessConfig, client: TurbopufferClient): (data: SetupData) => void {
  let clock: SeriesClock | undefined;
  return (data) => {
    clock ??= seriesClock(data.t0, scenariosDurationMs(config));
    // Probes are written while the bands can last; the scenario then waits out the last probes' reads.
    if (Date.now() >= data.t0 + bandsDurationMs(config)) return;
    const probe = exec.scenario.iterationInTest;
    const ids = probeIds(probe, config.probeRows);
    const vectors = probeVectors(data.seed, probe, config.probeRows, config.dims);

    const before = position(client, data.namespace);
    const sentAt = Date.now();
    const res = client.write(
      data.namespace,
      {
        upsert_columns: { id: ids, vector: vectors.rows.map((v) => base64(float32LeBytes(v))) },
        distance_metric: 'cosine_distance',
        // A probe lands whatever the backlog: above the limit a plain write would get 429.
        disable_backpressure: true,
      },
      { writer: 'probe' },
    );
    const ackMs = Date.now();
    if (res.status !== 200) {
      writeErrors.add(1, { writer: 'probe', status: String(res.status) });
      return;
    }
    const after = position(client, data.namespace);
    const band = probeBand(config, data.t0, ackMs, after.unindexed);
    writeAck.add(ackMs - sentAt, { band, writer: 'probe' });
    probesWritten.add(1, { band });
    const ts = bucketTag(clock, ackMs);
    pointBacklog.add(after.unindexed, { ts });

    const watch = new ProbeWatch(ackMs);
    const progress: IndexProgress[] = [];
    const track = (p: Position) => {
      if (p.logical !== null) progress.push({ time: p.time, indexedBytes: p.logical });
    };
    track(after);
    // The recall of the newest writes: what the first ANN read at each consistency returned (none when refused).
    const firstAnn = new Set<ReadKind>();
    const deadline = ackMs + config.probeTimeoutS * 1000;
    let lastPosition = after.time;
    while (watch.pending().length > 0 && Date.now() < deadline) {
      const roundStart = Date.now();
      for (const read of watch.pending()) {
        const startedAt = Date.now();
        const outcome = readProbe(client, data.namespace, read, ids, vectors.centre, config.topK, band);
        if (outcome.partial) probePartial.add(1, { band, read });
        watch.record(read, startedAt, Date.now(), outcome.result);
        if (readMethod(read) === 'ann' && !firstAnn.has(read)) {
          firstAnn.add(read);
          if (outcome.recall !== null)
            probeRecentRecall.add(outcome.recall, { band, consistency: readConsistency(read) });
        }
      }
      // Where indexing has got to, once a second, while an eventual read still waits.
      if (
        watch.pending().some((r) => readConsistency(r) === 'eventual') &&
        Date.now() - lastPosition >= 1000
      ) {
        const p = position(client, data.namespace);
        lastPosition = p.time;
        track(p);
      }
      sleep(Math.max(0, config.probeIntervalMs - (Date.now() - roundStart)) / 1000);
    }

    const tail = config.tailLimitBytes;
    const probeBytes = config.probeRows * rowBytes(config.dims);
    // A log entry is one write: a bulk batch at most.
    const entrySlack = Math.max(config.writeBatchRows, config.probeRows) * rowBytes(config.dims);
    for (const read of READS) {
      const o = watch.outcome(read);
      probeFirstRead.add(1, { band, read, result: o.first ?? 'error' });
      if (o.lagMs === null || o.seenAtMs === null) {
        probeNeverSeen.add(1, { band, read });
        continue;
      }
      probeLag.add(o.lagMs, { band, read });
      pointLag.add(o.lagMs, { ts, read });
      if (readConsistency(read) === 'eventual' && before.logical !== null && after.logical !== null)
        probeLagError.add(
          visibilityError(
            o.reads,
            before.logical + before.unindexed + probeBytes,
            after.logical + after.unindexed,
            tail,
            progress,
            entrySlack,
          ),
          { band, read },
        );
    }
  };
}

/** A fresh metadata reading (not the tracker's cached one): the log position around the probe's write. */
function position(client: TurbopufferClient, namespace: string): Position {
  const res = client.metadata(namespace, { role: 'probe' });
  const time = Date.now();
  const index = res.body?.index;
  return {
    time,
    logical: res.body?.approx_logical_bytes ?? null,
    unindexed: index?.status === 'updating' ? (index.unindexed_bytes ?? 0) : 0,
  };
}

/** One read of a probe: what it found, a partial answer by id, and an ANN read's recall of the probe's rows. */
function readProbe(
  client: TurbopufferClient,
  namespace: string,
  read: ReadKind,
  ids: number[],
  centre: number[],
  topK: number,
  band: string,
): { result: ReadResult; partial: boolean; recall: number | null } {
  const consistency = readConsistency(read);
  const byId = readMethod(read) === 'id';
  const res = client.query(
    namespace,
    byId
      ? {
          rank_by: ['id', 'asc'],
          top_k: ids.length,
          filters: ['id', 'In', ids],
          consistency: { level: consistency },
        }
      : { rank_by: ['vector', 'ANN', centre], top_k: topK, consistency: { level: consistency } },
    { band, consistency, query: `probe_${readMethod(read)}` },
  );
  if (res.status === 429) return { result: 'refused', partial: false, recall: null };
  if (res.status !== 200) return { result: 'error', partial: false, recall: null };
  const returned = (res.body?.rows ?? []).map((row) => row.id);
  if (byId) {
    const found = idReadResult(returned, ids);
    return { result: found === 'partial' ? 'missing' : found, partial: found === 'partial', recall: null };
  }
  const ann = annReadResult(returned, ids);
  return { result: ann.result, partial: false, recall: ann.recall };
}
