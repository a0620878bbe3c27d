// One result JSON -> its charts (SVG beside it), its Markdown with the charts embedded, and its self-contained HTML
// report (charts, then the Markdown's tables). Which experiment wrote the file decides the charts; a file no
// experiment of this version wrote (the per-configuration launcher's, summary exports) is named and skipped.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { marked } from 'marked';
import { escapeHtml, htmlPage, pageCharts } from '../charts/html-page';
import { renderSvg } from '../charts/svg';
import type { ChartSet } from '../core/chart-spec';
import { type Experiment, loadExperiment } from '../lib/experiment';
import { chartSection, embedCharts, withoutChartSection } from './markdown-embed';

/** A result JSON with the experiment that wrote it (lib/<name>/experiment.ts). */
export interface KnownResult {
  experiment: string;
  definition: Experiment;
  /** What the experiment's readResult returned: only its own charts and cells read it. */
  result: unknown;
}

export type Classified = KnownResult | { experiment: null; reason: string };

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Which experiment's result this is, or why it is none `bench report` can draw. */
export async function classifyResult(json: unknown): Promise<Classified> {
  if (!isObject(json)) return { experiment: null, reason: 'not a JSON object' };
  const name = typeof json.experiment === 'string' ? json.experiment : null;
  const definition = name === null ? null : await loadExperiment(name);
  if (name === null || definition === null)
    return { experiment: null, reason: 'not a result of any experiment of this version (make <experiment>)' };
  const read = definition.readResult(json);
  if ('reason' in read) return { experiment: null, reason: read.reason };
  return { experiment: name, definition, result: read.result };
}

function chartsOf(r: KnownResult): ChartSet {
  return r.definition.charts(r.result);
}

export interface ReportOutcome {
  json: string;
  html: string;
  written: string[];
  notes: string[];
}

/** `<dir>/<name>.json` -> `<dir>/<name>` (every file the report writes starts with it). */
export function baseOf(jsonPath: string): string {
  return join(dirname(jsonPath), basename(jsonPath, '.json'));
}

/**
 * The Markdown around its title (the first `# ` line, which the page's heading replaces): what comes before it (an
 * aborted run's or a dirty tree's warning, which the page shows first) and the rest (the tables).
 */
function splitAtTitle(markdown: string): { before: string; title: string | null; after: string } {
  const lines = markdown.split('\n');
  const at = lines.findIndex((line) => line.startsWith('# '));
  if (at < 0) return { before: '', title: null, after: markdown };
  return {
    before: lines.slice(0, at).join('\n'),
    title: lines[at].slice(2).trim(),
    after: lines.slice(at + 1).join('\n'),
  };
}

/** Writes the SVGs, the HTML page and the Markdown's charts section of one result; returns what it wrote. */
export function writeResultReport(jsonPath: string, r: KnownResult): ReportOutcome {
  const base = baseOf(jsonPath);
  const name = basename(base);
  const set = chartsOf(r);
  const written: string[] = [];
  const embedded = set.charts.map((spec) => {
    const file = `${base}.${spec.id}.svg`;
    writeFileSync(file, renderSvg(spec));
    written.push(file);
    return { title: spec.title, file: basename(file) };
  });
  const mdPath = `${base}.md`;
  const html = `${base}.html`;
  let markdown: string | undefined;
  if (existsSync(mdPath)) {
    markdown = embedCharts(readFileSync(mdPath, 'utf8'), chartSection(embedded, basename(html), set.notes));
    writeFileSync(mdPath, markdown);
    written.push(mdPath);
  }
  const parts = markdown ? splitAtTitle(withoutChartSection(markdown)) : null;
  const introHtml = [
    ...(parts?.before.trim() ? [marked.parse(parts.before, { async: false }) as string] : []),
    `<p>Result: <code>${escapeHtml(basename(jsonPath))}</code>${markdown ? `, <code>${escapeHtml(`${name}.md`)}</code>` : ''}.</p>`,
    ...set.notes.map((n) => `<p><em>${escapeHtml(n)}</em></p>`),
  ].join('\n');
  writeFileSync(
    html,
    htmlPage({
      title: parts?.title ?? r.definition.title,
      introHtml,
      charts: pageCharts(set.charts),
      bodyHtml: parts
        ? (marked.parse(parts.after, { async: false }) as string)
        : '<p>No Markdown beside this result.</p>',
    }),
  );
  written.push(html);
  return { json: jsonPath, html, written, notes: set.notes };
}
