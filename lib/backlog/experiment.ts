// Experiment 1, querying while indexing, as the launcher and the report find it (lib/experiment.ts).
import { defineExperiment } from '../experiment';
import { type BacklogReportInput, backlogCharts } from './charts';
import { backlogCells, publishedBacklogCells } from './comparable';
import { readBacklogConfig } from './config';
import { scenarioOptionsFor } from './options';
import { PROFILES } from './profiles';

export const experiment = defineExperiment<BacklogReportInput>({
  name: 'backlog',
  title: 'Experiment 1: querying while indexing',
  profiles: { local: PROFILES.local, smoke: PROFILES.smoke, service: PROFILES.service },
  options: (env) => scenarioOptionsFor(readBacklogConfig(env)),
  readResult(json) {
    if (Array.isArray(json.cells) && Array.isArray(json.metadata_snapshots))
      return { result: json as unknown as BacklogReportInput };
    return { reason: 'a backlog result without cells or metadata snapshots' };
  },
  charts: backlogCharts,
  comparableCells: backlogCells,
  publishedCells: publishedBacklogCells,
  publishedDescription: 'the published table',
});
