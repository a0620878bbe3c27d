// setup() of experiment 2: every configuration in turn gets a fresh namespace, its ingest (timed), its drain (polled
// until indexed), its storage and billing figures, the counted matches of its filters and its recall probes, one
// configuration at a time so no ingest shares the target with another's work. Every VU and handleSummary receive
// the figures; teardown() deletes the namespaces (lib/namespace-lifecycle.ts), as does a failed setup().

import { formatBytes } from '../../core/sizes';
import { drawSeed } from '../common-knobs';
import { compactTimestamp, deleteNamespace, fillFreshNamespaces } from '../namespace-lifecycle';
import { STATUS_PREFIX } from '../status-lines';
import type { TurbopufferClient } from '../turbopuffer-client';
import { distinctFilters, type StudyPlan } from './cells';
import type { FilterCostConfig } from './config';
import type { Configuration } from './configurations';
import { formatFilterCostPlan, planFilterCost } from './cost-plan';
import { drainFigures } from './drain';
import { ingest } from './ingest';
import { selectivityRatio, writeErrors, writeRetries429 } from './metrics';
import { PollSeries } from './poll-series';
import { configurationStartLine } from './progress';
import { countMatches, probeRecall } from './recall-probes';
import type { ConfigurationData, SetupData } from './setup-data';

function namespaceOf(prefix: string, configuration: string): string {
  return `${prefix}-${configuration}`;
}

export function makeSetup(c: FilterCostConfig, client: TurbopufferClient, plan: StudyPlan): () => SetupData {
  return () => {
    const startedAtMs = Date.now();
    const prefix = c.namespacePrefix ?? `bench-filter-cost-${compactTimestamp(startedAtMs)}`;
    const seed = drawSeed(c.seed);
    console.log(formatFilterCostPlan(c, planFilterCost(c, plan)));
    console.log(
      `namespaces ${prefix}-*, seed ${seed} (rerun with SEED=${seed} for the same vectors and values)`,
    );
    // The write-error counters exist from the start, so their thresholds judge a run without a single failure too.
    writeErrors.add(0);
    writeRetries429.add(0);
    // Leave a margin inside setupTimeout so a slow drain is reported by us, not killed by the runner.
    const deadline = startedAtMs + c.setupTimeoutS * 1000 - 10_000;
    const namespaces = c.configurations.map((x) => namespaceOf(prefix, x.name));
    const warmup = namespaceOf(prefix, WARMUP_CONFIGURATION.name);
    return fillFreshNamespaces(client, [warmup, ...namespaces], c.cleanup, (created) => {
      if (c.ingestWarmupRows > 0) {
        created.push(warmup);
        warmUp(c, client, warmup, seed, deadline);
        created.pop();
      }
      const configurations = c.configurations.map((configuration, i) => {
        created.push(namespaces[i]);
        return runConfiguration(c, client, plan, configuration, namespaces[i], seed, {
          startedAtMs,
          deadlineMs: deadline,
          index: i,
        });
      });
      return {
        prefix,
        seed,
        startedAtMs,
        setupEndedAtMs: Date.now(),
        emulator: c.target.kind === 'emulator' ? client.emulatorInfo() : null,
        created: [...created],
        configurations,
      };
    });
  };
}

/** The throwaway configuration written first: a string column exercises every body-building path. */
const WARMUP_CONFIGURATION: Configuration = {
  name: 'warmup',
  attribute: { type: 'string', cardinality: 100, filterable: true },
};

/**
 * Writes INGEST_WARMUP_ROWS to a throwaway namespace, waits for its index, and deletes it: the script's body
 * building, the connections and the target's write path are warm before the first configuration's clock starts, so
 * the head baseline is not slower for being first.
 */
function warmUp(
  c: FilterCostConfig,
  client: TurbopufferClient,
  namespace: string,
  seed: number,
  deadlineMs: number,
) {
  const scaled = { ...c, rows: Math.min(c.rows, c.ingestWarmupRows) };
  const polls = new PollSeries(
    client,
    namespace,
    scaled.rows,
    c.pollIntervalS * 1000,
    { config: 'warmup' },
    'the warm-up namespace',
  );
  const stats = ingest(scaled, client, WARMUP_CONFIGURATION, namespace, seed, polls);
  polls.waitUntilIndexed(deadlineMs, `the warm-up namespace ${namespace}`);
  console.log(`warm-up: ${stats.rows} rows written to ${namespace} in ${stats.wall_s.toFixed(1)} s`);
  deleteNamespace(client, namespace, 'the warm-up namespace is never kept');
}

function runConfiguration(
  c: FilterCostConfig,
  client: TurbopufferClient,
  plan: StudyPlan,
  configuration: Configuration,
  namespace: string,
  seed: number,
  study: { startedAtMs: number; deadlineMs: number; index: number },
): ConfigurationData {
  const cells = plan.cells.filter((cell) => cell.configuration === configuration.name);
  console.log(
    `${STATUS_PREFIX}${configurationStartLine(configuration, study.index, c.configurations.length, c.rows)}`,
  );
  const polls = new PollSeries(
    client,
    namespace,
    c.rows,
    c.pollIntervalS * 1000,
    { config: configuration.name },
    configuration.name,
  );
  const ingested = ingest(c, client, configuration, namespace, seed, polls);
  polls.waitUntilIndexed(
    Math.min(study.deadlineMs, polls.origin + ingested.last_ack_ms + c.drainTimeoutS * 1000),
    `${configuration.name} (${namespace})`,
  );
  const drain = drainFigures(polls.polls, ingested.last_ack_ms);
  const metadata = client.metadata(namespace, { phase: 'storage', config: configuration.name });
  const matches = countMatches(client, namespace, cells);
  // A failed count reads as ratio 0, so the selectivity threshold fails rather than passing unmeasured.
  for (const cell of distinctFilters(cells))
    selectivityRatio.add((matches[cell.selectivityTag] ?? 0) / cell.expectedMatches, {
      config: cell.configuration,
      selectivity: cell.selectivityTag,
    });
  console.log(
    `${configuration.name}: ${ingested.rows} rows in ${ingested.wall_s.toFixed(1)} s ` +
      `(${formatBytes(ingested.request_bytes)} of JSON, ${ingested.retries_429} retries after 429), ` +
      `indexed ${drain.duration_s?.toFixed(2)} s after the last write, peak backlog ` +
      `${formatBytes(drain.peak_unindexed_bytes ?? 0)}`,
  );
  return {
    name: configuration.name,
    namespace,
    ingest: ingested,
    drain: {
      ...drain,
      poll_interval_s: c.pollIntervalS,
      polls: polls.polls,
      polls_origin_s: (polls.origin - study.startedAtMs) / 1000,
    },
    storage: {
      approx_logical_bytes: metadata.body?.approx_logical_bytes ?? null,
      approx_row_count: metadata.body?.approx_row_count ?? null,
      billing: { billable_logical_bytes_written: ingested.billable_bytes_written },
    },
    matches,
    recall: probeRecall(c, client, namespace, seed, cells),
  };
}
