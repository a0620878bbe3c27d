// The charts section `bench report` keeps in a result's Markdown: one image per chart and a link to the HTML report,
// between markers, so running it again replaces the section instead of adding another. Pure.

export const BEGIN = '<!-- bench report: charts (npx bench report regenerates this section) -->';
export const END = '<!-- /bench report -->';

export interface EmbeddedChart {
  title: string;
  /** Image file name, relative to the Markdown file. */
  file: string;
}

export function chartSection(
  charts: readonly EmbeddedChart[],
  html: string,
  notes: readonly string[],
): string[] {
  return [
    BEGIN,
    '',
    ...charts.flatMap((c) => [`![${c.title}](${encodeURI(c.file)})`, '']),
    `Interactive report (tooltips, series toggled from the legend): [${html}](${encodeURI(html)})`,
    ...notes.flatMap((n) => ['', `_${n}_`]),
    '',
    END,
  ];
}

/** The Markdown without the charts section (for the HTML page, which draws the charts itself). */
export function withoutChartSection(markdown: string): string {
  const start = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) return markdown;
  return `${markdown.slice(0, start)}${markdown.slice(end + END.length).replace(/^\n+/, '')}`;
}

/**
 * The Markdown with the section in place: where it already was, else before the first table or second-level
 * heading (after the run's summary lines), else at the end.
 */
export function embedCharts(markdown: string, section: readonly string[]): string {
  const block = section.join('\n');
  const start = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (start >= 0 && end > start)
    return `${markdown.slice(0, start)}${block}${markdown.slice(end + END.length)}`;
  const lines = markdown.split('\n');
  const at = lines.findIndex((l, i) => i > 0 && (l.startsWith('|') || l.startsWith('## ')));
  if (at < 0) return `${markdown.replace(/\n*$/, '\n\n')}${block}\n`;
  return [...lines.slice(0, at), ...section, '', ...lines.slice(at)].join('\n');
}
