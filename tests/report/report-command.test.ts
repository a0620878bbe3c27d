// bench report through the real CLI: a directory of results (and files that are not results), the Markdown's charts
// section written once however often it runs, --newest, and a named file it cannot draw.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildResult } from '../../lib/backlog/results/json';
import { renderMarkdown } from '../../lib/backlog/results/markdown';
import {
  fixtureConfig,
  fixtureRun,
  fixtureSummary,
} from '../../lib/backlog/results/testdata/summary-fixture';
import { buildFilterCostResult } from '../../lib/filter-cost/results/json';
import { renderFilterCostMarkdown } from '../../lib/filter-cost/results/markdown';
import * as fc from '../../lib/filter-cost/results/testdata/fixture';
import { jsonFileText } from '../../lib/results/run-record';
import { BEGIN, END } from '../../report/markdown-embed';
import { classifyResult, writeResultReport } from '../../report/result-report';
import { tempDir } from '../temp-dir';

const root = join(import.meta.dirname, '../..');
const bench = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'dist/bench.js'), 'report', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('bench report', () => {
  const dir = tempDir('bench-report-');
  const result = buildResult(fixtureSummary(), fixtureConfig, fixtureRun);
  writeFileSync(join(dir, 'run-a.json'), jsonFileText(result));
  writeFileSync(join(dir, 'run-a.md'), renderMarkdown(result));
  writeFileSync(
    join(dir, 'old.json'),
    jsonFileText({ experiment: 'filter-cost', configuration: 'int-2', cells: [] }),
  );

  it('draws every result of a directory, skips what is not one, and keeps one charts section', () => {
    const first = bench(dir);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(
      `skipped ${join(dir, 'old.json')}: a filter-cost result of the per-configuration launcher`,
    );
    for (const f of ['latency.svg', 'errors.svg', 'cells.svg', 'html'])
      expect(existsSync(join(dir, `run-a.${f}`))).toBe(true);
    expect(readFileSync(join(dir, 'run-a.latency.svg'), 'utf8')).toMatch(
      /^<svg [^>]*width="960" height="440"/,
    );
    expect(bench('--quiet', dir).stdout).toBe('');
    const md = readFileSync(join(dir, 'run-a.md'), 'utf8');
    expect(md.split(BEGIN)).toHaveLength(2);
    expect(md.split(END)).toHaveLength(2);
    // The section sits after the run's summary lines, before the table.
    expect(md.indexOf(BEGIN)).toBeLessThan(md.indexOf('| Phase |'));
    expect(md).toContain('![Client latency while indexing](run-a.latency.svg)');
    const html = readFileSync(join(dir, 'run-a.html'), 'utf8');
    expect(html).not.toContain(BEGIN);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href="http/);
  });

  it('draws the same result into the same SVG bytes, whatever was drawn before it in the process', () => {
    const twins = mkdtempSync(join(tmpdir(), 'bench-report-twins-'));
    for (const name of ['first', 'second']) writeFileSync(join(twins, `${name}.json`), jsonFileText(result));
    expect(bench('--quiet', twins).status).toBe(0);
    for (const chart of ['latency', 'errors', 'cells'])
      expect(readFileSync(join(twins, `second.${chart}.svg`), 'utf8'), chart).toBe(
        readFileSync(join(twins, `first.${chart}.svg`), 'utf8'),
      );
    rmSync(twins, { recursive: true, force: true });
  });

  it('takes only the newest result with --newest, and refuses a named file it cannot draw', () => {
    writeFileSync(join(dir, 'run-b.json'), jsonFileText(result));
    utimesSync(join(dir, 'run-a.json'), new Date(1_000_000), new Date(1_000_000));
    const newest = bench('--newest', dir);
    expect(newest.stdout).toContain(`${join(dir, 'run-b.json')}: backlog result`);
    expect(newest.stdout).not.toContain('run-a.json: backlog');
    expect(bench('--newest', join(dir, 'missing')).status).toBe(0);
    const refused = bench(join(dir, 'old.json'));
    expect(refused.status).toBe(255);
    expect(refused.stderr).toContain('old.json: a filter-cost result of the per-configuration launcher');
    expect(bench(join(dir, 'nothing.json')).status).toBe(255);
  });
});

describe('the HTML report of a run whose Markdown warns before its title', () => {
  const dir = tempDir('bench-report-warning-');
  /** The page bench report writes for a result and its Markdown: its title, the intro (above the charts), the rest. */
  async function page(name: string, result: unknown, markdown: string) {
    const json = join(dir, `${name}.json`);
    writeFileSync(json, jsonFileText(result));
    writeFileSync(join(dir, `${name}.md`), markdown);
    const known = await classifyResult(result);
    if (known.experiment === null) throw new Error(known.reason);
    const html = readFileSync(writeResultReport(json, known).html, 'utf8');
    return {
      title: html.match(/<title>(.*)<\/title>/)?.[1],
      headings: html.match(/<h1>/g)?.length,
      intro: html.slice(html.indexOf('<div class="intro">'), html.indexOf('<section id="charts">')),
    };
  }

  it("shows an aborted run's warning first, and keeps the title as the page's one heading", async () => {
    const stoppedAt = Date.UTC(2026, 0, 2, 3, 4, 8);
    const aborted = buildResult(fixtureSummary(), fixtureConfig, { ...fixtureRun, finishedAtMs: stoppedAt });
    const p = await page('aborted', aborted, renderMarkdown(aborted));
    expect(p.title).toBe('Experiment 1: querying while indexing (bench-backlog-fixture)');
    expect(p.headings).toBe(1);
    expect(p.intro).toContain('<strong>Aborted run:</strong> interrupted 1 min 01 s before');
  });

  it('says a dirty-tree build first', async () => {
    const dirty = buildFilterCostResult(
      fc.fixtureSummary(),
      fc.fixtureConfig,
      fc.fixturePlan,
      fc.fixtureRunInfo(true),
    );
    const p = await page('dirty', dirty, renderFilterCostMarkdown(dirty));
    expect(p.title).toMatch(/^Experiment 2: filterable-attribute cost, /);
    expect(p.headings).toBe(1);
    expect(p.intro).toContain(
      '<strong>Built from a dirty tree: commit abc123def456 plus uncommitted changes',
    );
  });
});
