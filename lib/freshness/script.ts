// Experiment 3's script, assembled in init code from its knobs: bad knobs and an unconfirmed real-service run are
// refused here, before anything is written; the returned functions are what scenarios/freshness.ts exports.
import { readApiKey } from '../common-knobs';
import { assertConfirmed } from '../cost-guard';
import type { EnvRecord } from '../env';
import { makeTeardown } from '../namespace-lifecycle';
import { TurbopufferClient } from '../turbopuffer-client';
import { readVersions } from '../versions';
import { readFreshnessConfig } from './config';
import { formatFreshnessPlan, planFreshness } from './cost-plan';
import { freshnessOptions } from './options';
import { makeProber } from './prober';
import { makeSampler } from './sampler';
import { makeSetup } from './setup';
import { makeSummary } from './summary';
import { makeWriter } from './writer';

export function freshnessScript(env: EnvRecord) {
  const config = readFreshnessConfig(env);
  assertConfirmed(env, config.target, formatFreshnessPlan(config, planFreshness(config)));
  const client = new TurbopufferClient(config.target.baseUrl, readApiKey(env));
  return {
    options: freshnessOptions(config),
    setup: makeSetup(config, client),
    write: makeWriter(config, client),
    probe: makeProber(config, client),
    sample: makeSampler(config, client),
    teardown: makeTeardown(client, config.cleanup),
    handleSummary: makeSummary(config, readVersions(env)),
  };
}
