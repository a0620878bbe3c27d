// Experiment 3, how fresh are reads while indexing (issue 31): probes written beside bulk writers and read until
// seen, at strong and eventual consistency, while the backlog is idle, below the eventual tail limit, between the
// tail and the unindexed limit, and above it. Knobs: lib/freshness/config.ts (`-e HELP=1` lists them); logic:
// lib/freshness/. Runs unchanged on bench's runner and on Grafana k6 (`k6 run build/freshness.js -e ...`).
import { FRESHNESS_KNOBS } from '../lib/freshness/config';
import { freshnessScript } from '../lib/freshness/script';
import { knobHelp, knobHelpScript, wantsHelp } from '../lib/knobs';

// The only place __ENV is read: bad knobs fail in freshnessScript, in init, before anything is written.
const env = __ENV;
const script = wantsHelp(env)
  ? knobHelpScript(
      knobHelp(
        'build/freshness.js: experiment 3, how fresh are reads while indexing. Knobs (-e NAME=value):',
        ['npx bench run build/freshness.js -e PROBE_RATE=2', 'k6 run build/freshness.js -e ...'],
        FRESHNESS_KNOBS,
      ),
      ['write', 'probe', 'sample'],
    )
  : freshnessScript(env);

export const options = script.options;
export const setup = script.setup;
export const write = script.write;
export const probe = script.probe;
export const sample = script.sample;
export const teardown = script.teardown;
export const handleSummary = script.handleSummary;
