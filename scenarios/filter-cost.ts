// Experiment 2, filterable-attribute cost (issue 12): the published study as one k6 test. setup() gives every
// configuration of CONFIGURATIONS a fresh namespace and measures its ingest, drain and storage; the query windows
// then measure ann_only, ann_filtered at 1 %, filter_ordered and the selectivity sweep at strong and eventual
// consistency; handleSummary writes the report. Knobs: lib/filter-cost/config.ts (`-e HELP=1` lists them); logic:
// lib/filter-cost/. Runs unchanged on bench's runner and on Grafana k6 (`k6 run build/filter-cost.js -e ...`).
import { FILTER_COST_KNOBS } from '../lib/filter-cost/config';
import { filterCostScript } from '../lib/filter-cost/script';
import { knobHelp, knobHelpScript, wantsHelp } from '../lib/knobs';

// The only place __ENV is read: bad knobs fail in filterCostScript, in init, before anything is written.
const env = __ENV;
const script = wantsHelp(env)
  ? knobHelpScript(
      knobHelp(
        'build/filter-cost.js: experiment 2, filterable-attribute cost. Knobs (-e NAME=value):',
        [
          'npx bench run build/filter-cost.js -e ROWS=50000 -e QUERY_MODE=workers',
          'k6 run build/filter-cost.js -e ...',
        ],
        FILTER_COST_KNOBS,
      ),
      ['query'],
    )
  : filterCostScript(env);

export const options = script.options;
export const setup = script.setup;
export const query = script.query;
export const teardown = script.teardown;
export const handleSummary = script.handleSummary;
