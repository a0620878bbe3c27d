// k6/browser (docs: javascript-api/k6-browser): the `browser` object whose pages are Playwright pages (k6's browser
// API follows Playwright's), driven by playwright-core on Debian's /usr/bin/chromium (never a downloaded browser),
// one browser process per VU, launched on its first page. Each iteration has its own browser context, closed when
// the iteration ends, as in k6. Metrics as k6 names them: browser_http_req_duration, browser_http_req_failed,
// browser_data_sent/received per request of the page, and the web vitals browser_web_vital_fcp, _lcp, _cls and
// _ttfb, measured in the page by PerformanceObserver.
import { existsSync } from 'node:fs';
import type * as Playwright from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../core/chromium';
import { requireCjs } from '../require-cjs';
import type { VuRuntime } from '../vu/runtime';

/** Reports the page's web vitals to the binding the context exposes. */
const VITALS_SCRIPT = `(() => {
  const report = (name, value) => { try { window.__benchVital(name, value, location.href); } catch {} };
  const observe = (type, fn) => { try { new PerformanceObserver((l) => l.getEntries().forEach(fn)).observe({ type, buffered: true }); } catch {} };
  observe('paint', (e) => { if (e.name === 'first-contentful-paint') report('fcp', e.startTime); });
  observe('largest-contentful-paint', (e) => report('lcp', e.startTime));
  let cls = 0;
  observe('layout-shift', (e) => { if (!e.hadRecentInput) { cls += e.value; report('cls', cls); } });
  observe('navigation', (e) => report('ttfb', e.responseStart));
})();`;

/** k6's network profiles for page.throttleNetwork(): latency in ms, throughput in bytes/s (-1: unthrottled). */
const NETWORK_PROFILES = {
  'No Throttling': { latency: 0, download: -1, upload: -1 },
  'Slow 3G': { latency: 400 * 5, download: ((500 * 1000) / 8) * 0.8, upload: ((500 * 1000) / 8) * 0.8 },
  'Fast 3G': {
    latency: 150 * 3.75,
    download: ((1.6 * 1000 * 1000) / 8) * 0.9,
    upload: ((750 * 1000) / 8) * 0.9,
  },
};

/** k6's page methods Playwright does not have, over the page's Chrome DevTools Protocol session. */
function withK6PageMethods(page: Playwright.Page): Playwright.Page {
  let session: Promise<Playwright.CDPSession> | undefined;
  const cdp = () => {
    session ??= page.context().newCDPSession(page);
    return session;
  };
  Object.assign(page, {
    async throttleNetwork(profile: { latency?: number; download?: number; upload?: number }) {
      await (await cdp()).send('Network.emulateNetworkConditions', {
        offline: false,
        latency: profile.latency ?? 0,
        downloadThroughput: profile.download ?? -1,
        uploadThroughput: profile.upload ?? -1,
      });
    },
    async throttleCPU(profile: { rate?: number }) {
      await (await cdp()).send('Emulation.setCPUThrottlingRate', { rate: profile.rate ?? 1 });
    },
  });
  return page;
}

/** k6's file payload for setInputFiles: {name, mimetype, buffer} with the content base64-encoded (k6/encoding). */
interface K6FilePayload {
  name?: unknown;
  mimetype?: unknown;
  mimeType?: unknown;
  buffer?: unknown;
}

/** A payload's content: base64 text as k6 documents it, or bytes (the script's realm: no instanceof). */
function fileBytes(content: unknown): Buffer {
  if (typeof content === 'string') return Buffer.from(content, 'base64');
  if (ArrayBuffer.isView(content)) return Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (Object.prototype.toString.call(content) === '[object ArrayBuffer]')
    return Buffer.from(content as ArrayBuffer);
  return Buffer.alloc(0);
}

/** setInputFiles' files as Playwright takes them: k6's payloads become {name, mimeType, buffer: Buffer}. */
function playwrightFiles(files: unknown): unknown {
  const one = (file: unknown): unknown => {
    if (file === null || typeof file !== 'object' || Buffer.isBuffer(file) || !('buffer' in file))
      return file;
    const f = file as K6FilePayload;
    const content = f.buffer;
    return {
      name: String(f.name ?? ''),
      mimeType: String(f.mimeType ?? f.mimetype ?? 'application/octet-stream'),
      buffer: fileBytes(content),
    };
  };
  return Array.isArray(files) ? files.map(one) : one(files);
}

type SetInputFiles = (...args: unknown[]) => Promise<void>;
let filesPatched = false;

/**
 * Pages, frames, locators and element handles are Playwright's own objects, made by Playwright wherever a script
 * reaches them, so k6's file payloads are translated on their classes' setInputFiles, once per VU thread (`files`
 * is the first argument of a locator's or handle's, the second of a page's or frame's, after the selector).
 */
async function acceptK6FilePayloads(page: Playwright.Page): Promise<void> {
  if (filesPatched) return;
  filesPatched = true;
  const handle = await page.$('html');
  const targets: Array<[object, number]> = [
    [Object.getPrototypeOf(page), 1],
    [Object.getPrototypeOf(page.mainFrame()), 1],
    [Object.getPrototypeOf(page.locator('html')), 0],
  ];
  if (handle) targets.push([Object.getPrototypeOf(handle), 0]);
  await handle?.dispose();
  for (const [proto, at] of targets) {
    const target = proto as { setInputFiles: SetInputFiles };
    const original = target.setInputFiles;
    target.setInputFiles = function (this: unknown, ...args: unknown[]) {
      args[at] = playwrightFiles(args[at]);
      return original.apply(this, args);
    };
  }
}

/** k6's words when an iteration's scenario has no `options.browser.type` (e.g. `--vus`/`--iterations` replaced it). */
const NOT_A_BROWSER_SCENARIO =
  'browser not found in registry. make sure to set browser type option in scenario definition in order to use the browser module';

export function createBrowserModule(rt: VuRuntime): Record<string, unknown> {
  let launched: Promise<Playwright.Browser> | undefined;
  let context: Playwright.BrowserContext | undefined;
  let closing: Promise<void> = Promise.resolve();

  const tagsFor = (url: string, extra: Record<string, string> = {}) => ({
    ...rt.tags(),
    url,
    name: url,
    ...extra,
  });

  // k6 starts a browser only for iterations of scenarios that name a browser type; elsewhere every browser call throws.
  const requireBrowserScenario = (): void => {
    if (rt.scenario && !rt.scenario.browserType) throw new Error(NOT_A_BROWSER_SCENARIO);
  };

  const launch = (): Promise<Playwright.Browser> => {
    requireBrowserScenario();
    if (!existsSync(CHROMIUM))
      throw new Error(
        `k6/browser needs Chromium at ${CHROMIUM}, which is missing: \`make chromium\` installs the Debian package`,
      );
    launched ??= (async () => {
      const { chromium } = requireCjs('playwright-core') as typeof Playwright;
      return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_FLAGS] });
    })();
    return launched;
  };

  rt.onIterationEnd(() => {
    // k6 closes the iteration's browser context when the iteration ends.
    const open = context;
    context = undefined;
    if (open) closing = open.close().catch(() => undefined);
  });

  const instrument = async (ctx: Playwright.BrowserContext): Promise<void> => {
    await ctx.exposeFunction('__benchVital', (name: string, value: number, url: string) => {
      rt.emit([
        {
          metric: `browser_web_vital_${name}`,
          time: Date.now(),
          value,
          tags: tagsFor(url),
          metadata: rt.metadata(),
        },
      ]);
    });
    await ctx.addInitScript(VITALS_SCRIPT);
    const settle = async (request: Playwright.Request, failed: boolean) => {
      const response = failed ? null : await request.response().catch(() => null);
      const timing = request.timing();
      const status = response?.status() ?? 0;
      const url = request.url();
      const tags = tagsFor(url, {
        method: request.method(),
        status: String(status),
        resource_type: request.resourceType().replace(/^./, (c) => c.toUpperCase()),
      });
      const sizes = await request.sizes().catch(() => undefined);
      const metadata = rt.metadata();
      const time = Date.now();
      const duration = Math.max(timing.responseEnd, 0);
      rt.emit([
        { metric: 'browser_http_req_duration', time, value: duration, tags, metadata },
        {
          metric: 'browser_http_req_failed',
          time,
          value: failed || status >= 400 || status === 0 ? 1 : 0,
          tags,
          metadata,
        },
        {
          metric: 'browser_data_sent',
          time,
          value: sizes ? sizes.requestHeadersSize + sizes.requestBodySize : 0,
          tags,
          metadata,
        },
        {
          metric: 'browser_data_received',
          time,
          value: sizes ? sizes.responseHeadersSize + sizes.responseBodySize : 0,
          tags,
          metadata,
        },
      ]);
    };
    ctx.on('requestfinished', (r) => void rt.track(settle(r, false)));
    ctx.on('requestfailed', (r) => void rt.track(settle(r, true)));
  };

  const newContext = async (
    options?: Playwright.BrowserContextOptions,
  ): Promise<Playwright.BrowserContext> => {
    if (rt.inInitContext()) throw new Error('using the browser in the init context is not supported');
    if (context) throw new Error('existing browser context must be closed before creating a new one');
    await closing;
    const browser = await launch();
    const ctx = await browser.newContext(options);
    const newPage = ctx.newPage.bind(ctx);
    const cookies = ctx.cookies.bind(ctx);
    Object.assign(ctx, {
      newPage: async () => {
        const page = withK6PageMethods(await newPage());
        await acceptK6FilePayloads(page);
        return page;
      },
      // k6 takes the URLs as separate arguments (context.cookies(a, b)); Playwright takes one or an array.
      cookies: (...urls: Array<string | string[]>) => cookies(urls.flat()),
    });
    context = ctx;
    ctx.on('close', () => {
      if (context === ctx) context = undefined;
    });
    await instrument(ctx);
    return ctx;
  };

  const browser = {
    async newContext(options?: Playwright.BrowserContextOptions) {
      return newContext(options);
    },
    async newPage(options?: Playwright.BrowserContextOptions) {
      const ctx = context ?? (await newContext(options));
      return ctx.newPage();
    },
    context() {
      requireBrowserScenario();
      return context ?? null;
    },
    async closeContext() {
      requireBrowserScenario();
      if (!context) throw new Error('no browser context to close');
      const ctx = context;
      context = undefined;
      await ctx.close();
    },
    isConnected() {
      requireBrowserScenario();
      return launched !== undefined;
    },
    async version() {
      return (await launch()).version();
    },
    async userAgent() {
      const ctx = await (await launch()).newContext();
      try {
        const page = await ctx.newPage();
        return (await page.evaluate('navigator.userAgent')) as string;
      } finally {
        await ctx.close();
      }
    },
  };

  /** Browsers reached over CDP in this iteration: k6 closes their connections when it ends (not the browsers). */
  const connected: Playwright.Browser[] = [];
  rt.onIterationEnd(() => {
    for (const remote of connected.splice(0))
      closing = closing.then(() => remote.close().catch(() => undefined));
  });

  /**
   * k6's chromium.connectOverCDP(wsEndpoint): a browser that already runs, reached over its DevTools WebSocket. It
   * needs no browser type in the scenario (nothing is launched), and the connection lasts until the iteration ends
   * or the script calls close() on it.
   */
  const chromium = {
    async connectOverCDP(wsEndpoint: unknown) {
      if (rt.inInitContext()) throw new Error('using the browser in the init context is not supported');
      const endpoint = String(wsEndpoint ?? '');
      if (!/^wss?:\/\//i.test(endpoint))
        throw new Error(
          `connectOverCDP: the endpoint must be the browser's CDP WebSocket URL (ws:// or wss://), got ${JSON.stringify(endpoint)}`,
        );
      const pw = requireCjs('playwright-core') as typeof Playwright;
      const remote = await pw.chromium.connectOverCDP(endpoint);
      connected.push(remote);
      return remote;
    },
  };

  const members = { browser, chromium, devices: {}, networkProfiles: NETWORK_PROFILES };
  return { ...members, default: members };
}
