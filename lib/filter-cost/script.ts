// Experiment 2's script, assembled in init code from its knobs: bad knobs and an unconfirmed real-service run are
// refused here, before anything is written; the returned functions are what scenarios/filter-cost.ts exports.
import { readApiKey } from '../common-knobs';
import { assertConfirmed } from '../cost-guard';
import type { EnvRecord } from '../env';
import { makeTeardown } from '../namespace-lifecycle';
import { TurbopufferClient } from '../turbopuffer-client';
import { readVersions } from '../versions';
import { planStudy } from './cells';
import { readFilterCostConfig } from './config';
import { formatFilterCostPlan, planFilterCost } from './cost-plan';
import { filterCostOptions } from './options';
import { makeQuery } from './query';
import { makeSetup } from './setup';
import { makeSummary } from './summary';
import { timeline } from './timeline';

export function filterCostScript(env: EnvRecord) {
  const config = readFilterCostConfig(env);
  const plan = planStudy(config);
  assertConfirmed(env, config.target, formatFilterCostPlan(config, planFilterCost(config, plan)));
  const client = new TurbopufferClient(config.target.baseUrl, readApiKey(env));
  return {
    options: filterCostOptions(config, plan.cells),
    setup: makeSetup(config, client, plan),
    query: makeQuery(config, client, timeline(config, plan.cells), plan.cells[0]),
    teardown: makeTeardown(client, config.cleanup),
    handleSummary: makeSummary(config, plan, readVersions(env)),
  };
}
