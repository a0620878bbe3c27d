// Every HTML page bench generates, opened in headless Chromium (the Debian package; make chromium installs it): no
// console error, every chart drew, every legend entry is shown above the plot (none paged away) and toggles marks the
// chart really drew (hiding a series removes elements from its SVG). The pages: reports of golden results of both experiments (one from before the
// time series), every committed result's report, and the web-dashboard export of a short run of a small script
// (tests/report/dashboard-run.ts; tests/report/dashboard.test.ts checks its content).
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildResult } from '../../lib/backlog/results/json';
import legacy from '../../lib/backlog/results/testdata/result-before-series.json';
import {
  fixtureConfig,
  fixtureRun,
  fixtureSummary,
} from '../../lib/backlog/results/testdata/summary-fixture';
import { buildFilterCostResult } from '../../lib/filter-cost/results/json';
import * as fc from '../../lib/filter-cost/results/testdata/fixture';
import { jsonFileText } from '../../lib/results/run-record';
import { withChromium } from '../../report/browser';
import { classifyResult, writeResultReport } from '../../report/result-report';
import { MetricRegistry } from '../../runner/metrics/registry';
import { WebDashboard } from '../../runner/outputs/web-dashboard/index';
import { tempDir } from '../temp-dir';
import { dashboardRun, fixtureServer } from './dashboard-run';

const dir = tempDir('bench-report-browser-');

async function report(name: string, result: unknown, markdown: string): Promise<string> {
  const json = join(dir, `${name}.json`);
  writeFileSync(json, jsonFileText(result));
  writeFileSync(join(dir, `${name}.md`), markdown);
  const known = await classifyResult(result);
  if (known.experiment === null) throw new Error(known.reason);
  return writeResultReport(json, known).html;
}

function committedPages(root: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (name === 'scratch') continue;
    if (statSync(path).isDirectory()) out.push(...committedPages(path));
    else if (name.endsWith('.html')) out.push(path);
  }
  return out;
}

// Runs in the page (plain JS: the test's TypeScript has no DOM types). A series' marks are the elements in its
// colour below the legend (the plot area); hiding it from the legend must remove some. zrender paints on the next
// frame, so each toggle is painted at once before counting.
const INSPECT = `[...document.querySelectorAll('.chart')].map((el) => {
  const chart = echarts.getInstanceByDom(el);
  const series = chart.getOption().series;
  const top = el.getBoundingClientRect().top + chart.getOption().grid[0].top - 4;
  const marks = (color) => [...el.querySelectorAll('path, rect, circle, polyline, polygon')].filter((e) =>
    (e.getAttribute('stroke') === color || e.getAttribute('fill') === color) && e.getBoundingClientRect().bottom > top,
  ).length;
  const toggle = (type, name) => { chart.dispatchAction({ type, name }); chart.getZr().refreshImmediately(); };
  chart.getZr().refreshImmediately();
  const silent = series.filter((s) => {
    const before = marks(s.color);
    toggle('legendUnSelect', s.name);
    const hidden = marks(s.color);
    toggle('legendSelect', s.name);
    return before === 0 || hidden >= before;
  }).map((s) => s.name);
  // Legend entries a reader can see: a text with the series' name inside the chart, above the plot.
  const box = el.getBoundingClientRect();
  const shown = new Set([...el.querySelectorAll('text')].filter((t) => {
    const r = t.getBoundingClientRect();
    return r.bottom <= top + 4 && r.right <= box.right + 1 && r.width > 0;
  }).map((t) => t.textContent));
  const unseen = [...new Set(series.map((s) => s.name))].filter((name) => !shown.has(name));
  return { id: el.id, series: series.length, silent, unseen };
})`;

/** What the page did: console errors, charts drawn, and per chart the series whose hiding removed nothing. */
async function inspect(page: Page, file: string) {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`file://${file}`);
  await page.waitForSelector('body[data-charts-drawn]', { timeout: 20_000 });
  const charts = (await page.evaluate(INSPECT)) as {
    id: string;
    series: number;
    silent: string[];
    unseen: string[];
  }[];
  return { errors, drawn: Number(await page.getAttribute('body', 'data-charts-drawn')), charts };
}

describe('generated HTML in a real browser', () => {
  let pages: string[] = [];
  const dashboard = join(dir, 'web-dashboard.html');
  beforeAll(async () => {
    const server = await fixtureServer();
    try {
      const run = await dashboardRun(server.url, dashboard);
      if (run.code !== 0) throw new Error(`the web-dashboard run exited ${run.code}: ${run.stderr}`);
    } finally {
      await server.close();
    }
    pages = [
      dashboard,
      await report(
        'backlog-golden',
        buildResult(fixtureSummary(), fixtureConfig, fixtureRun),
        '# Experiment 1\n\n| a |\n|---|\n| 1 |\n',
      ),
      await report('backlog-before-series', legacy, '# Experiment 1 (before the series)\n'),
      await report(
        'filter-cost-golden',
        buildFilterCostResult(fc.fixtureSummary(), fc.fixtureConfig, fc.fixturePlan, fc.fixtureRunInfo()),
        '# Experiment 2\n',
      ),
      ...committedPages(join(import.meta.dirname, '../../results')),
    ];
  });

  it('opens every page without a console error, and every chart drew each of its series', async () => {
    const seen = await withChromium(async (browser) => {
      const out: Record<string, Awaited<ReturnType<typeof inspect>>> = {};
      for (const file of pages) {
        const page = await browser.newPage();
        out[file] = await inspect(page, file);
        await page.close();
      }
      return out;
    });
    for (const [file, s] of Object.entries(seen)) {
      expect(s.errors, file).toEqual([]);
      expect(s.drawn, file).toBe(s.charts.length);
      expect(s.charts.length, file).toBeGreaterThan(0);
      for (const c of s.charts) {
        expect(c.series, `${file} ${c.id}`).toBeGreaterThan(0);
        expect(c.silent, `${file} ${c.id}: series that drew nothing`).toEqual([]);
        expect(c.unseen, `${file} ${c.id}: legend entries not shown above the plot`).toEqual([]);
      }
    }
    expect(seen[dashboard].charts.map((c) => c.id)).toEqual([
      'chart-requests',
      'chart-http_req_duration',
      'chart-vus',
      'chart-checks',
      'chart-errors',
      'chart-trend-server_ms',
    ]);
    expect(seen[pages[1]].charts.map((c) => c.id)).toEqual(['chart-latency', 'chart-errors', 'chart-cells']);
    expect(seen[pages[3]].charts.map((c) => c.id)).toEqual([
      'chart-sweep',
      'chart-headline',
      'chart-ingest',
      'chart-drain',
    ]);
  });

  it('follows the live dashboard: a chart appears with its first samples, the status ends with the test', async () => {
    const registry = new MetricRegistry();
    const errors: string[] = [];
    const live = await WebDashboard.start(
      { serve: true, host: '127.0.0.1', port: 0, periodMs: 200, openRequested: false },
      { script: 'live.js', registry, onError: (m) => errors.push(m) },
    );
    const reqs = registry.resolve('http_reqs');
    const trend = registry.define('live_ms', 'trend', 'time');
    const t0 = Date.now();
    for (let p = 0; p < 4; p++) live.write(reqs, t0 + p * 200, 1, { tags: { scenario: 'a' } });
    await withChromium(async (browser) => {
      const page = await browser.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${live.url}/`);
      await page.waitForSelector('body[data-charts-drawn="1"]', { timeout: 20_000 }); // the request rate
      // New samples of a custom trend: the next update (one period later) brings its chart.
      for (let p = 0; p < 4; p++) live.write(trend, t0 + p * 200, 5 + p, { tags: { scenario: 'a' } });
      await page.waitForSelector('body[data-charts-drawn="2"] #chart-trend-live_ms svg', {
        state: 'attached',
        timeout: 20_000,
      });
      expect(await page.textContent('#status')).toMatch(/^running: /);
      await live.finish('finished');
      // Plain JS: the test's TypeScript has no DOM types.
      await page.waitForFunction(
        "document.getElementById('status').textContent.startsWith('finished')",
        null,
        {
          timeout: 20_000,
        },
      );
      expect(await page.getAttribute('body', 'data-charts-drawn')).toBe('2');
      await page.close();
    });
    expect(errors).toEqual([]);
  });
});
