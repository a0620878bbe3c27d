// One short run of tests/report/fixtures/web-dashboard.js with the web dashboard live (any free loopback port) and
// exported, 1 s periods; `during` is called with the live page's address while the test runs.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, startServer } from '../runner/harness';

export interface DashboardRun {
  code: number | null;
  stdout: string;
  stderr: string;
  url: string;
}

export function dashboardRun(
  base: string,
  exportFile: string,
  during: (url: string) => Promise<void> = async () => {},
): Promise<DashboardRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'dist/bench.js'),
        'run',
        '-e',
        `BASE=${base}`,
        join(ROOT, 'tests/report/fixtures/web-dashboard.js'),
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NO_COLOR: '1',
          K6_WEB_DASHBOARD: 'true',
          K6_WEB_DASHBOARD_PORT: '0',
          K6_WEB_DASHBOARD_PERIOD: '1s',
          K6_WEB_DASHBOARD_EXPORT: exportFile,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    let url = '';
    let visit: Promise<void> = Promise.resolve();
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = / web dashboard: (\S+)/.exec(stdout);
      if (m && url === '') {
        url = m[1];
        visit = during(url);
      }
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      visit.then(() => resolve({ code, stdout, stderr, url }), reject);
    });
  });
}

/** The charts embedded in a page: id and each series' name and points. */
export function exportedCharts(
  html: string,
): { id: string; series: { name: string; data: [number, number | null][] }[] }[] {
  const json = /<script type="application\/json" id="bench-charts">(.*?)<\/script>/s.exec(html)?.[1];
  if (!json) throw new Error('no charts in the page');
  return (
    JSON.parse(json) as {
      id: string;
      option: { series: { name: string; data: [number, number | null][] }[] };
    }[]
  ).map((c) => ({ id: c.id, series: c.option.series.map((s) => ({ name: s.name, data: s.data })) }));
}

/** The loopback server the script runs against: /fail answers 503, anything else 200. */
export function fixtureServer(): ReturnType<typeof startServer> {
  return startServer((req) =>
    req.url === '/fail' ? { status: 503, body: 'no' } : { status: 200, body: 'ok' },
  );
}
