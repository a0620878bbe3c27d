// k6's web dashboard for any script (config.ts lists the variables): every sample goes to the recorder; with
// K6_WEB_DASHBOARD=true a loopback HTTP server serves the live page (GET /, updated over server-sent events at
// /events every period; GET /report: the report as it stands), and with K6_WEB_DASHBOARD_EXPORT the report is
// written when the test ends. Unlike k6, bench does not wait for open browser windows before it exits: the live page
// gets an `end` event and keeps what it drew.
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BenchError } from '../../../core/errors';
import { EXIT_GENERIC_ERROR } from '../../../core/exit-codes';
import { nowMs } from '../../control-block';
import type { Series } from '../../metrics/aggregator';
import type { Metric, MetricRegistry } from '../../metrics/registry';
import { sinkValues } from '../../summary/data';
import { goFileError } from '../writable';
import type { DashboardConfig } from './config';
import { type DashboardView, dashboardContent, dashboardPage, type MetricTotal, TREND_STATS } from './page';
import { DashboardRecorder } from './recorder';

export interface DashboardContext {
  script: string;
  registry: MetricRegistry;
  /** Errors (an export that cannot be written) go here; the run and its exit code go on. */
  onError(message: string): void;
  /** Samples from the past, in any order (bench merge). */
  replay?: boolean;
}

/** Every metric with samples, over the whole test so far, sorted by name (as the end-of-test summary). */
function metricTotals(registry: MetricRegistry, elapsedMs: number): MetricTotal[] {
  return [...registry.metrics.values()]
    .filter((m) => m.sink.samples > 0)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((m) => ({
      name: m.name,
      type: m.type,
      contains: m.contains,
      values: sinkValues(m.sink, TREND_STATS, elapsedMs),
    }));
}

/** Only loopback names in the Host header: a page of another origin cannot read the dashboard by DNS rebinding. */
function loopbackHostHeader(req: IncomingMessage): boolean {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  return (
    host === '127.0.0.1' || host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

export class WebDashboard {
  private readonly recorder: DashboardRecorder;
  private readonly started = nowMs();
  private server: Server | undefined;
  private readonly clients = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | undefined;
  /** The live page's address, when one is served. */
  url: string | undefined;

  private constructor(
    private readonly config: DashboardConfig,
    private readonly ctx: DashboardContext,
  ) {
    this.recorder = new DashboardRecorder(config.periodMs, ctx.replay !== true);
  }

  /** Starts the live page when asked for; throws (before the test starts) when its port cannot be had. */
  static async start(config: DashboardConfig, ctx: DashboardContext): Promise<WebDashboard> {
    const d = new WebDashboard(config, ctx);
    if (config.serve) await d.listen();
    return d;
  }

  write(metric: Metric, time: number, value: number, series: Series): void {
    this.recorder.write(metric, time, value, series);
  }

  private view(status: string): DashboardView {
    const elapsedMs = nowMs() - this.started;
    return {
      script: this.ctx.script,
      data: this.recorder.data(),
      metrics: metricTotals(this.ctx.registry, elapsedMs),
      status,
      elapsedS: elapsedMs / 1000,
    };
  }

  private async listen(): Promise<void> {
    const server = createServer((req, res) => this.answer(req, res));
    // Never what keeps the process alive: the run's end closes it, and an error before that must not hang.
    server.unref();
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.port, this.config.host, () => {
        server.off('error', reject);
        resolve();
      });
    }).catch((error: NodeJS.ErrnoException) => {
      this.server = undefined;
      const where = `${this.config.host}:${this.config.port}`;
      throw new BenchError(
        error.code === 'EADDRINUSE'
          ? `web dashboard: ${where} is in use (another test's dashboard?): set K6_WEB_DASHBOARD_PORT to another port, 0 for any free one, or -1 for no live page`
          : `web dashboard: cannot listen on ${where}: ${error.message}`,
        EXIT_GENERIC_ERROR,
      );
    });
    const { port } = server.address() as AddressInfo;
    const host = this.config.host.includes(':') ? `[${this.config.host}]` : this.config.host;
    this.url = `http://${host}:${port}`;
    this.timer = setInterval(() => this.push(), this.config.periodMs);
    this.timer.unref();
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    if (!loopbackHostHeader(req)) {
      res
        .writeHead(421, { 'content-type': 'text/plain' })
        .end('the dashboard answers loopback host names only\n');
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET') res.writeHead(405, { allow: 'GET' }).end();
    else if (path === '/') this.html(res, dashboardPage(this.view('running'), '/events'));
    // Browsers ask for an icon; an empty answer keeps a 404 out of the page's console.
    else if (path === '/favicon.ico') res.writeHead(204).end();
    else if (path === '/report') this.html(res, dashboardPage(this.view('running')));
    else if (path === '/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      this.clients.add(res);
      res.on('close', () => this.clients.delete(res));
      this.send(res, 'update', this.update('running'));
    } else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the dashboard is at /\n');
  }

  private html(res: ServerResponse, page: string): void {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  }

  private update(status: string): string {
    const c = dashboardContent(this.view(status));
    return JSON.stringify({ charts: c.charts, bodyHtml: c.bodyHtml, status: c.status });
  }

  private send(res: ServerResponse, event: string, data: string): void {
    res.write(`event: ${event}\ndata: ${data}\n\n`);
  }

  /** Sends the page as it stands to every open page (and builds it only when one is open). */
  private push(status = 'running'): void {
    if (this.clients.size === 0) return;
    const data = this.update(status);
    for (const res of this.clients) this.send(res, 'update', data);
  }

  /** The test ended: the last update and `end` to open pages, the export written, the server closed. */
  async finish(status: string): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.config.exportPath) {
      try {
        writeFileSync(this.config.exportPath, dashboardPage(this.view(status)));
      } catch (error) {
        this.ctx.onError(
          `web dashboard: ${goFileError(error, this.config.exportPath, 'write')}; no report was written`,
        );
      }
    }
    const server = this.server;
    if (!server) return;
    this.push(status);
    for (const res of this.clients) {
      this.send(res, 'end', '{}');
      res.end();
    }
    this.clients.clear();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
