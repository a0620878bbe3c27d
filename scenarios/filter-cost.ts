// Experiment 2, filterable-attribute cost: one namespace configuration per run (attribute type and cardinality,
// filterable or not, or no attribute): ingest throughput, drain, storage and billing signals, then query latency and
// recall for ann_only, ann_filtered, filter_ordered and a selectivity sweep. Knobs: lib/filter-cost/config.ts;
// logic: lib/filter-cost/. `make filter-cost` loops over the configurations (scripts/run-filter-cost.ts).

import { readApiKey } from '../lib/common-knobs';
import { assertConfirmed } from '../lib/cost-guard';
import { planCells } from '../lib/filter-cost/cells';
import { readFilterCostConfig } from '../lib/filter-cost/config';
import { formatFilterCostPlan, planFilterCost } from '../lib/filter-cost/cost-plan';
import { filterCostOptions } from '../lib/filter-cost/options';
import { makeQuery } from '../lib/filter-cost/query';
import { makeSetup } from '../lib/filter-cost/setup';
import { makeSummary } from '../lib/filter-cost/summary';
import { makeTeardown } from '../lib/namespace-lifecycle';
import { TurbopufferClient } from '../lib/turbopuffer-client';
import { readVersions } from '../lib/versions';

// The only place __ENV is read: bad knobs fail here, in init, before anything is written.
const env = __ENV;
const config = readFilterCostConfig(env);
const plan = planCells(config);
assertConfirmed(env, config.target, formatFilterCostPlan(config, planFilterCost(config, plan.cells)));
const client = new TurbopufferClient(config.target.baseUrl, readApiKey(env));

export const options = filterCostOptions(config, plan.cells);
export const setup = makeSetup(config, client, plan.cells);
export const query = makeQuery(config, client, plan.cells);
export const teardown = makeTeardown(client, config.cleanup);
export const handleSummary = makeSummary(config, plan, readVersions(env));
