import { describe, expect, it } from 'vitest';
import { distinctFilters, planStudy } from './cells';
import { readFilterCostConfig } from './config';

const ids = (env: Record<string, string>) => planStudy(readFilterCostConfig(env)).cells.map((c) => c.id);

describe('planStudy', () => {
  it('plans the published study: ann_only everywhere, 1% cells where reachable, the sweep on int-10k', () => {
    const plan = planStudy(readFilterCostConfig({}));
    const perConfiguration = new Map<string, string[]>();
    for (const c of plan.cells)
      perConfiguration.set(c.configuration, [
        ...(perConfiguration.get(c.configuration) ?? []),
        `${c.shape}/${c.selectivityTag}`,
      ]);
    const headline = ['ann_only/100', 'ann_filtered/1', 'filter_ordered/1'];
    expect(Object.fromEntries(perConfiguration)).toEqual({
      'baseline-head': ['ann_only/100'],
      'int-2': ['ann_only/100'],
      'string-2': ['ann_only/100'],
      'int-100': headline,
      'string-100': headline,
      'int-10k': [
        'ann_only/100',
        ...['0.1', '1', '10', '50', '100'].flatMap((s) => [`ann_filtered/${s}`, `filter_ordered/${s}`]),
      ],
      'string-10k': headline,
      'int-100k': headline,
      'string-100k': headline,
      'int-unique': headline,
      'string-unique': headline,
      'int-10k-unfiltered': ['ann_only/100'],
      'string-10k-unfiltered': ['ann_only/100'],
      'baseline-tail': ['ann_only/100'],
    });
    expect(plan.cells).toHaveLength(38);
    expect(plan.unreachable).toEqual([
      {
        configuration: 'int-2',
        selectivityTag: '1',
        reason: '2 values cover no set of exactly 10000 rows (nearest: 0 or 500000)',
      },
      {
        configuration: 'string-2',
        selectivityTag: '1',
        reason: '2 values cover no set of exactly 10000 rows (nearest: 0 or 500000)',
      },
    ]);
  });

  it('gives each cell its exact filter, match count and expected answer size', () => {
    const plan = planStudy(
      readFilterCostConfig({ ROWS: '50000', CONFIGURATIONS: 'int-100,string-unique,int-10k' }),
    );
    const byId = Object.fromEntries(plan.cells.map((c) => [c.id, c]));
    expect(byId['int-100/ann_filtered/1']).toMatchObject({
      filter: ['attr', 'Eq', 0],
      expectedMatches: 500,
      expectedRows: 10,
    });
    expect(byId['string-unique/filter_ordered/1']).toMatchObject({
      filter: ['attr', 'Lt', 'v0000500'],
      expectedMatches: 500,
    });
    expect(byId['int-10k/ann_filtered/0.1']).toMatchObject({
      filter: ['attr', 'Lt', 10],
      expectedMatches: 50,
    });
    expect(byId['int-10k/ann_filtered/100']).toMatchObject({
      filter: ['attr', 'Lt', 10_000],
      expectedMatches: 50_000,
    });
    expect(byId['int-100/ann_only/100']).toMatchObject({
      filter: null,
      expectedMatches: 50_000,
      selectivity: 1,
    });
  });

  it('keeps SELECTIVITIES order and adds the headline 1% when the sweep leaves it out', () => {
    expect(ids({ CONFIGURATIONS: 'int-10k', SELECTIVITIES: '50,10' })).toEqual([
      'int-10k/ann_only/100',
      'int-10k/ann_filtered/1',
      'int-10k/filter_ordered/1',
      'int-10k/ann_filtered/50',
      'int-10k/filter_ordered/50',
      'int-10k/ann_filtered/10',
      'int-10k/filter_ordered/10',
    ]);
  });

  it('counts each filter once, whichever shapes use it', () => {
    const plan = planStudy(readFilterCostConfig({ CONFIGURATIONS: 'baseline,int-100,int-10k' }));
    expect(distinctFilters(plan.cells).map((c) => `${c.configuration}/${c.selectivityTag}`)).toEqual([
      'int-100/1',
      'int-10k/0.1',
      'int-10k/1',
      'int-10k/10',
      'int-10k/50',
      'int-10k/100',
    ]);
  });
});
