// Experiment 1, querying while indexing (issue 5): ANN query latency, strong vs eventual, while the namespace is
// idle, indexing below the backlog limit, and indexing above it. Knobs: lib/backlog/config.ts; logic: lib/backlog/.
// Runs unchanged on bench's runner and on Grafana k6 (`k6 run build/backlog.js -e ...`).

import { readBacklogConfig } from '../lib/backlog/config';
import { assertCostAccepted, planCost } from '../lib/backlog/cost-plan';
import { scenarioOptionsFor, scheduleOf } from '../lib/backlog/options';
import { scenarioDurationMs } from '../lib/backlog/phases';
import { makeQuery } from '../lib/backlog/query';
import { makeSetup } from '../lib/backlog/setup';
import { makeSummary } from '../lib/backlog/summary';
import { makeWriter } from '../lib/backlog/writer';
import { readApiKey } from '../lib/common-knobs';
import { makeTeardown } from '../lib/namespace-lifecycle';
import { TurbopufferClient } from '../lib/turbopuffer-client';
import { readVersions } from '../lib/versions';

// The only place __ENV is read: bad knobs fail here, in init, before anything is written.
const env = __ENV;
const config = readBacklogConfig(env);
assertCostAccepted(env, config, planCost(config, scenarioDurationMs(scheduleOf(config))));
const client = new TurbopufferClient(config.target.baseUrl, readApiKey(env));

export const options = scenarioOptionsFor(config);
export const setup = makeSetup(config, client);
export const query = makeQuery(config, client);
export const write = makeWriter(config, client);
export const teardown = makeTeardown(client, config.cleanup);
export const handleSummary = makeSummary(config, readVersions(env));
