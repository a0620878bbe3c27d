// Experiment 2, filterable-attribute cost, as the launcher and the report find it (lib/experiment.ts).
import { defineExperiment } from '../experiment';
import { planStudy } from './cells';
import { type FilterCostReportInput, filterCostCharts } from './charts';
import { filterCostCells, publishedFilterCostCells } from './comparable';
import { readFilterCostConfig } from './config';
import { filterCostOptions } from './options';
import { PROFILES } from './profiles';

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export const experiment = defineExperiment<FilterCostReportInput>({
  name: 'filter-cost',
  title: 'Experiment 2: filterable-attribute cost',
  profiles: { local: PROFILES.local, smoke: PROFILES.smoke, service: PROFILES.service },
  options(env) {
    const config = readFilterCostConfig(env);
    return filterCostOptions(config, planStudy(config).cells);
  },
  readResult(json) {
    const configurations = json.configurations;
    if (Array.isArray(configurations) && Array.isArray(json.cells) && isObject(configurations[0]?.ingest))
      return { result: json as unknown as FilterCostReportInput };
    return {
      reason:
        "a filter-cost result of the per-configuration launcher (before the one-run study): its cells are not the study's",
    };
  },
  charts: filterCostCharts,
  comparableCells: filterCostCells,
  publishedCells: publishedFilterCostCells,
  publishedDescription: 'the published headline and sweep tables',
});
