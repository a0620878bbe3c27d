// setup()'s ingest of one configuration: ROWS seeded vectors plus the attribute column, WRITE_BATCH_ROWS per
// upsert_columns request, WRITE_CONCURRENCY requests in flight (http.batch), retrying 429 (counted as retries),
// 5xx and network failures (counted as write errors) with the server's retry-after or a backoff. The clock runs from
// the first body's generation to the last acknowledgement, so body generation and every wait are in the wall time;
// metadata is polled between request groups (at most once per poll interval).
import { sleep } from 'k6';
import { type TurbopufferClient, upsertBody } from '../turbopuffer-client';
import { isRetryable, MAX_WRITE_ATTEMPTS, retryDelayMs } from '../write-retry';
import { attributeColumn, columnValues } from './attribute-values';
import { ATTRIBUTE_NAME, type FilterCostConfig } from './config';
import type { Configuration } from './configurations';
import { writeErrors, writeRetries429 } from './metrics';
import type { PollSeries } from './poll-series';
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
  configuration: Configuration,
  namespace: string,
  seed: number,
  polls: PollSeries,
): IngestStats {
  const a = configuration.attribute;
  const column = a ? attributeColumn(a.type, c.rows, a.cardinality, seed) : undefined;
  const attributeSchema = a ? { [ATTRIBUTE_NAME]: { type: a.type, filterable: a.filterable } } : undefined;
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
  const tags = { phase: 'ingest', config: configuration.name };
  const latencies: number[] = [];
  const stats: IngestStats = {
    rows: 0,
    requests: 0,
    request_bytes: 0,
    billable_bytes_written: 0,
    wall_s: 0,
    retries_429: 0,
    write_errors: 0,
    write_ms: { p50: null, p95: null, p99: null, max: null },
    last_ack_ms: 0,
  };
  const start = polls.origin;
  for (let first = 0; first < c.rows; ) {
    // The first request alone: it carries the schema, so no concurrent write can infer the attribute first.
    const size = first === 0 ? 1 : c.writeConcurrency;
    let pending: Batch[] = [];
    for (let i = 0; i < size && first < c.rows; i++) {
      const batch = makeBatch(first);
      pending.push(batch);
      first += batch.count;
    }
    for (let attempt = 1; pending.length > 0; attempt++) {
      const results = client.writeMany(
        namespace,
        pending.map((b) => b.body),
        tags,
      );
      const retry: Batch[] = [];
      let waitMs = 0;
      results.forEach((res, i) => {
        const batch = pending[i];
        if (res.status === 200) {
          stats.rows += batch.count;
          stats.requests++;
          stats.request_bytes += batch.body.length;
          stats.billable_bytes_written += res.body?.billing?.billable_logical_bytes_written ?? 0;
          if (res.durationMs !== undefined) latencies.push(res.durationMs);
          stats.last_ack_ms = Date.now() - start;
          return;
        }
        if (res.status === 429) {
          stats.retries_429++;
          writeRetries429.add(1, tags);
        } else {
          stats.write_errors++;
          writeErrors.add(1, { ...tags, status: String(res.status) });
        }
        if (!isRetryable(res.status) || attempt >= MAX_WRITE_ATTEMPTS)
          throw new Error(
            `${configuration.name}: writing rows ${batch.first}..${batch.first + batch.count - 1} failed: ` +
              `HTTP ${res.status}: ${res.error}`,
          );
        retry.push(batch);
        waitMs = Math.max(waitMs, retryDelayMs(res, attempt));
      });
      polls.maybePoll(stats.rows);
      pending = retry;
      if (pending.length > 0) sleep(waitMs / 1000);
    }
  }
  latencies.sort((x, y) => x - y);
  stats.wall_s = stats.last_ack_ms / 1000;
  stats.write_ms = {
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    max: latencies.length > 0 ? latencies[latencies.length - 1] : null,
  };
  return stats;
}
