// The report's public entry: what the `bench` command (cli/) calls. Everything else in report/ is internal to it.
export { compareRuns } from './compare/compare';
export { configDifferences } from './compare/config-differences';
export { evaluateGates, type Gate, parseGate } from './compare/gates';
export { compareMarkdown, compareText } from './compare/render';
export { loadSide, publishedSide, type Side } from './compare/sides';
export { newestRun, PublishRefused, publishRun } from './publish';
export { classifyResult, writeResultReport } from './result-report';

/** Full-page PNGs of HTML reports (headless Chromium); loads the browser driver only when called. */
export async function screenshotPages(pages: string[]): Promise<string[]> {
  const browser = await import('./browser');
  return browser.screenshotPages(pages);
}
