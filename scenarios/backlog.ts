// Experiment 1, querying while indexing (issue 5): ANN query latency, strong vs eventual, while the namespace is
// idle, indexing below the backlog limit, and indexing above it. Knobs: lib/backlog/config.ts (`-e HELP=1` lists
// them); logic: lib/backlog/. Runs unchanged on bench's runner and on Grafana k6 (`k6 run build/backlog.js -e ...`).
import { BACKLOG_KNOBS } from '../lib/backlog/config';
import { backlogScript } from '../lib/backlog/script';
import { knobHelp, knobHelpScript, wantsHelp } from '../lib/knobs';

// The only place __ENV is read: bad knobs fail in backlogScript, in init, before anything is written.
const env = __ENV;
const script = wantsHelp(env)
  ? knobHelpScript(
      knobHelp(
        'build/backlog.js: experiment 1, querying while indexing. Knobs (-e NAME=value):',
        [
          'npx bench run build/backlog.js -e SEED_ROWS=10000 -e QUERY_MODE=workers',
          'k6 run build/backlog.js -e ...',
        ],
        BACKLOG_KNOBS,
      ),
      ['query', 'write', 'recall'],
    )
  : backlogScript(env);

export const options = script.options;
export const setup = script.setup;
export const query = script.query;
export const write = script.write;
export const recall = script.recall;
export const teardown = script.teardown;
export const handleSummary = script.handleSummary;
