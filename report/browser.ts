// Headless Chromium from the Debian package (never a downloaded browser), driven by playwright-core: the browser test
// and the report screenshots open pages with it. Loopback-only: the pages are local files or 127.0.0.1 servers, and
// the flags keep Chromium from calling home.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../core/chromium';
import { BenchError } from '../core/errors';
import { EXIT_GENERIC_ERROR } from '../core/exit-codes';

/** Runs `fn` with a fresh browser profile, closed and removed afterwards. */
export async function withChromium<T>(fn: (browser: BrowserContext) => Promise<T>): Promise<T> {
  if (!existsSync(CHROMIUM))
    throw new BenchError(
      `${CHROMIUM} is missing`,
      EXIT_GENERIC_ERROR,
      'make chromium installs the Debian package (apt-get install chromium)',
    );
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'bench-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS],
    viewport: { width: 1100, height: 900 },
  });
  try {
    return await fn(browser);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** A full-page screenshot of each HTML page once its charts have drawn, as `<page>.png` beside it. */
export async function screenshotPages(pages: readonly string[]): Promise<string[]> {
  return withChromium(async (browser) => {
    const written: string[] = [];
    for (const file of pages) {
      const page = await browser.newPage();
      await page.goto(`file://${file}`);
      await page.waitForSelector('body[data-charts-drawn]', { timeout: 20_000 });
      const png = file.replace(/\.html$/, '.png');
      await page.screenshot({ path: png, fullPage: true });
      written.push(png);
      await page.close();
    }
    return written;
  });
}
