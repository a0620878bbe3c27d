// The top-k experiment's script, assembled in init code from its knobs: bad knobs and an unconfirmed real-service
// run are refused here, before anything is written; the returned functions are what scenarios/top-k.ts exports.
import { readApiKey } from '../common-knobs';
import { assertConfirmed } from '../cost-guard';
import type { EnvRecord } from '../env';
import { makeTeardown } from '../namespace-lifecycle';
import { TurbopufferClient } from '../turbopuffer-client';
import { readVersions } from '../versions';
import { readTopKConfig } from './config';
import { formatTopKPlan, planTopK } from './cost-plan';
import { topKOptions } from './options';
import { makeQuery } from './query';
import { makeSetup } from './setup';
import { makeSummary } from './summary';

export function topKScript(env: EnvRecord) {
  const config = readTopKConfig(env);
  assertConfirmed(env, config.target, formatTopKPlan(config, planTopK(config)));
  const client = new TurbopufferClient(config.target.baseUrl, readApiKey(env));
  return {
    options: topKOptions(config),
    setup: makeSetup(config, client),
    query: makeQuery(config, client),
    teardown: makeTeardown(client, config.cleanup),
    handleSummary: makeSummary(config, readVersions(env)),
  };
}
