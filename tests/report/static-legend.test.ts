// The static SVGs (embedded in the Markdown GitHub renders) show every series in their legend: no entry hidden behind
// a pager an image cannot turn, and the legend, however many rows it wraps onto, ends above the plot.
import { describe, expect, it } from 'vitest';
import { renderSvg, staticLayout } from '../../charts/svg';
import type { ChartSpec } from '../../core/chart-spec';
import { backlogCharts } from '../../lib/backlog/charts';
import { buildResult } from '../../lib/backlog/results/json';
import {
  fixtureConfig,
  fixtureRun,
  fixtureSummary,
} from '../../lib/backlog/results/testdata/summary-fixture';
import { filterCostCharts } from '../../lib/filter-cost/charts';
import { buildFilterCostResult } from '../../lib/filter-cost/results/json';
import {
  fixtureConfig as costConfig,
  fixtureSummary as costSummary,
  fixturePlan,
  fixtureRunInfo,
} from '../../lib/filter-cost/results/testdata/fixture';

// The golden results the chart builders' own tests use (lib/*/charts.test.ts).
const charts: ChartSpec[] = [
  ...backlogCharts(buildResult(fixtureSummary(), fixtureConfig, fixtureRun)).charts,
  ...filterCostCharts(buildFilterCostResult(costSummary(), costConfig, fixturePlan, fixtureRunInfo())).charts,
];

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

/** The text of every <text> element, entities decoded. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((m) =>
    m[1].replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, e: string) => ENTITIES[e]),
  );
}

describe('static SVG legends', () => {
  it('covers charts whose legend needs more than one row', () => {
    // A scrolling legend paged the sweep's 6 entries behind "1/2"; wrapped, they take a second row, 24 px taller.
    expect(
      charts.filter((c) => staticLayout(c).height !== 440).map((c) => [c.id, staticLayout(c).height]),
    ).toEqual([['sweep', 464]]);
  });

  it.each(charts.map((c) => [c.id, c]))('%s shows every series name and no pager', (_, spec) => {
    const svg = renderSvg(spec);
    const shown = texts(svg);
    for (const s of spec.series) expect(shown, s.name).toContain(s.name);
    expect(shown.filter((t) => /^\d+\/\d+$/.test(t))).toEqual([]);
  });

  it.each(charts.map((c) => [c.id, c]))(
    '%s has its legend above the plot, the SVG as tall as needed',
    (_, spec) => {
      const layout = staticLayout(spec);
      expect(layout.legendBottom).toBeLessThanOrEqual(layout.gridTop);
      expect(layout.option.legend.type).toBe('plain');
      expect(renderSvg(spec)).toMatch(new RegExp(`^<svg [^>]*width="960" height="${layout.height}"`));
    },
  );
});
