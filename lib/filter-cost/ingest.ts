// setup()'s ingest: ROWS seeded vectors plus the attribute column, WRITE_BATCH_ROWS per upsert_columns request,
// WRITE_CONCURRENCY requests in flight (http.batch), retrying 429/5xx/network failures with backoff. Measures
// acknowledged rows, request and billable bytes, time with requests in flight and per-request latency.
import { sleep } from 'k6';
import { formatBytes } from '../sizes';
import { type TurbopufferClient, upsertBody } from '../turbopuffer-client';
import { isRetryable, MAX_WRITE_ATTEMPTS, retryDelayMs } from '../write-retry';
import { attributeColumn, columnValues } from './attribute-values';
import type { BacklogSampler } from './backlog-sampler';
import { ATTRIBUTE_NAME, type FilterCostConfig } from './config';
import { percentile } from './quantile-ci';
import type { IngestStats } from './setup-data';

interface Batch {
  first: number;
  count: number;
  body: string;
}

export function ingest(
  c: FilterCostConfig,
  client: TurbopufferClient,
  namespace: string,
  seed: number,
  sampler: BacklogSampler,
): IngestStats {
  const column =
    c.attribute === 'none' ? undefined : attributeColumn(c.attribute, c.rows, c.cardinality, seed);
  const attributeSchema = column
    ? { [ATTRIBUTE_NAME]: { type: column.type, filterable: c.filterable } }
    : undefined;
  const makeBatch = (first: number): Batch => {
    const count = Math.min(c.writeBatchRows, c.rows - first);
    const body = upsertBody(seed, first, count, c.dims, {
      schema: first === 0,
      disableBackpressure: false,
      columns: column ? { [ATTRIBUTE_NAME]: columnValues(column, first, count) } : undefined,
      attributeSchema,
    });
    return { first, count, body: JSON.stringify(body) };
  };
  const latencies: number[] = [];
  const stats: IngestStats = {
    rows: 0,
    requests: 0,
    request_bytes: 0,
    billable_bytes_written: 0,
    busy_s: 0,
    wall_s: 0,
    write_ms: { p50: null, p95: null, p99: null, max: null },
    retries: 0,
    first_send_ms: 0,
    last_ack_ms: 0,
  };
  let busyMs = 0;
  let nextLog = 0.1;
  for (let first = 0; first < c.rows; ) {
    // The first request alone: it carries the schema, so no concurrent write can infer the attribute first.
    const size = first === 0 ? 1 : c.writeConcurrency;
    let pending: Batch[] = [];
    for (let i = 0; i < size && first < c.rows; i++) {
      const batch = makeBatch(first);
      pending.push(batch);
      stats.request_bytes += batch.body.length;
      first += batch.count;
    }
    for (let attempt = 1; pending.length > 0; attempt++) {
      const sentAt = Date.now();
      if (stats.first_send_ms === 0) stats.first_send_ms = sentAt;
      const results = client.writeMany(
        namespace,
        pending.map((b) => b.body),
        { phase: 'ingest' },
      );
      busyMs += Date.now() - sentAt;
      const retry: Batch[] = [];
      let waitMs = 0;
      results.forEach((res, i) => {
        const batch = pending[i];
        if (res.status === 200) {
          stats.rows += batch.count;
          stats.requests++;
          stats.billable_bytes_written += res.body?.billing?.billable_logical_bytes_written ?? 0;
          if (res.durationMs !== undefined) latencies.push(res.durationMs);
          stats.last_ack_ms = Date.now();
          return;
        }
        if (!isRetryable(res.status) || attempt >= MAX_WRITE_ATTEMPTS)
          throw new Error(
            `writing rows ${batch.first}..${batch.first + batch.count - 1} failed: HTTP ${res.status}: ${res.error}`,
          );
        stats.retries++;
        retry.push(batch);
        waitMs = Math.max(waitMs, retryDelayMs(res, attempt));
      });
      sampler.maybeSample();
      pending = retry;
      if (pending.length > 0) sleep(waitMs / 1000);
    }
    if (stats.rows >= nextLog * c.rows) {
      console.log(
        `ingested ${stats.rows} of ${c.rows} rows (${formatBytes(stats.request_bytes)} of JSON sent)`,
      );
      nextLog = Math.floor((stats.rows / c.rows) * 10 + 1) / 10;
    }
  }
  latencies.sort((a, b) => a - b);
  stats.busy_s = busyMs / 1000;
  stats.wall_s = (stats.last_ack_ms - stats.first_send_ms) / 1000;
  stats.write_ms = {
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    max: latencies.length > 0 ? latencies[latencies.length - 1] : null,
  };
  return stats;
}
