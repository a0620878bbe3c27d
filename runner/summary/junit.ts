// JUnit XML of a run's thresholds (one <testcase> per threshold expression), as jslib k6-summary's jUnit() gives.
import type { SummaryData } from './data';

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function renderJUnit(data: SummaryData, options: { name?: string; classname?: string } = {}): string {
  const cases: string[] = [];
  let failures = 0;
  for (const [metric, m] of Object.entries(data.metrics)) {
    for (const [source, { ok }] of Object.entries(m.thresholds ?? {})) {
      const name = xmlEscape(`${metric} - ${source}`);
      const cls = options.classname ? ` classname="${xmlEscape(options.classname)}"` : '';
      if (ok) cases.push(`<testcase name="${name}"${cls} />`);
      else {
        failures++;
        cases.push(`<testcase name="${name}"${cls}><failure message="failed" /></testcase>`);
      }
    }
  }
  const suite = xmlEscape(options.name ?? 'k6 thresholds');
  return (
    `<?xml version="1.0"?>\n<testsuites tests="${cases.length}" failures="${failures}">\n` +
    `<testsuite name="${suite}" tests="${cases.length}" failures="${failures}">${cases.join('\n')}\n</testsuite>\n</testsuites>`
  );
}
