// The top-k experiment: ANN query latency against top_k on an idle, fully indexed namespace, one cell per value of
// TOP_KS. The smallest experiment, and the worked example of docs/adding-an-experiment.md. Knobs:
// lib/top-k/config.ts (`-e HELP=1` lists them); logic: lib/top-k/.
import { knobHelp, knobHelpScript, wantsHelp } from '../lib/knobs';
import { TOP_K_KNOBS } from '../lib/top-k/config';
import { topKScript } from '../lib/top-k/script';

// The only place __ENV is read: bad knobs fail in topKScript, in init, before anything is written.
const env = __ENV;
const script = wantsHelp(env)
  ? knobHelpScript(
      knobHelp(
        'build/top-k.js: ANN latency by top_k on an idle namespace. Knobs (-e NAME=value):',
        ['npx bench run build/top-k.js -e TOP_KS=1,10,100', 'k6 run build/top-k.js -e ...'],
        TOP_K_KNOBS,
      ),
      ['query'],
    )
  : topKScript(env);

export const options = script.options;
export const setup = script.setup;
export const query = script.query;
export const teardown = script.teardown;
export const handleSummary = script.handleSummary;
