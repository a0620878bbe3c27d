// Experiment 1's script, assembled in init code from its knobs: bad knobs and an unconfirmed real-service run are
// refused here, before anything is written; the returned functions are what scenarios/backlog.ts exports.
import { readApiKey } from '../common-knobs';
import type { EnvRecord } from '../env';
import { makeTeardown } from '../namespace-lifecycle';
import { TurbopufferClient } from '../turbopuffer-client';
import { readVersions } from '../versions';
import { readBacklogConfig } from './config';
import { assertCostAccepted, planCost } from './cost-plan';
import { scenarioOptionsFor } from './options';
import { makeQuery } from './query';
import { makeRecall } from './recall';
import { makeSetup } from './setup';
import { makeSummary } from './summary';
import { makeWriter } from './writer';

export function backlogScript(env: EnvRecord) {
  const config = readBacklogConfig(env);
  assertCostAccepted(env, config, planCost(config));
  const client = new TurbopufferClient(config.target.baseUrl, readApiKey(env));
  return {
    options: scenarioOptionsFor(config),
    setup: makeSetup(config, client),
    query: makeQuery(config, client),
    write: makeWriter(config, client),
    recall: makeRecall(config, client),
    teardown: makeTeardown(client, config.cleanup),
    handleSummary: makeSummary(config, readVersions(env)),
  };
}
