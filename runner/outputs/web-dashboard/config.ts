// k6's web-dashboard variables read from the process environment (as k6 reads them; `-e` does not set them):
//   K6_WEB_DASHBOARD=true         a live page while the test runs (default false: see docs/k6-behaviour.md §8.6)
//   K6_NO_WEB_DASHBOARD=true      k6 v2's switch to turn the dashboard off: no page and no export
//   K6_WEB_DASHBOARD_HOST         where it listens (default localhost); bench listens on loopback only
//   K6_WEB_DASHBOARD_PORT         default 5665; -1: no live page (an export is still written); 0: any free port
//   K6_WEB_DASHBOARD_PERIOD       aggregation period of the charts and of the live updates (default 10s)
//   K6_WEB_DASHBOARD_OPEN         k6 opens a browser; bench prints the address instead (a warning says so)
//   K6_WEB_DASHBOARD_EXPORT=FILE  a self-contained HTML report written at the end; bench writes it with or without
//                                 K6_WEB_DASHBOARD (newer k6 has the dashboard on by default, so both write it)
// `--out web-dashboard[=host=H&port=P&period=D&open&export=FILE]` (the output's own query-string parameters) turns
// it on as K6_WEB_DASHBOARD=true does; its parameters win over the variables.
import { isIP } from 'node:net';
import { parseDuration } from '../../../core/durations';
import { BenchError } from '../../../core/errors';
import { EXIT_GENERIC_ERROR } from '../../../core/exit-codes';

export interface DashboardConfig {
  /** Serve the live page (K6_WEB_DASHBOARD=true and a port other than -1). */
  serve: boolean;
  /** The address to listen on: a loopback IP. */
  host: string;
  /** 0: any free port. */
  port: number;
  periodMs: number;
  /** The HTML report's path, or undefined for none. */
  exportPath?: string;
  /** What the path was given as, for an error about it: K6_WEB_DASHBOARD_EXPORT or `--out web-dashboard export`. */
  exportSource?: string;
  /** K6_WEB_DASHBOARD_OPEN was set true: bench does not start a browser, and says so. */
  openRequested: boolean;
}

const DEFAULT_PORT = 5665;
const DEFAULT_PERIOD_MS = 10_000;

function fail(message: string): never {
  throw new BenchError(message, EXIT_GENERIC_ERROR);
}

function bool(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '') return false;
  const v = raw.trim().toLowerCase();
  if (['true', '1', 't', 'yes'].includes(v)) return true;
  if (['false', '0', 'f', 'no'].includes(v)) return false;
  return fail(`${name}=${raw} is not a boolean: use true or false`);
}

/** Loopback only: the page shows the test's results (URLs, tags), which stay on this machine. */
function loopbackHost(raw: string | undefined, label: string): string {
  const host = (raw ?? '').trim();
  if (host === '' || host === 'localhost') return '127.0.0.1';
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare) === 4 && bare.startsWith('127.')) return bare;
  if (isIP(bare) === 6 && (bare === '::1' || bare === '0:0:0:0:0:0:0:1')) return '::1';
  return fail(
    `${label}=${host}: bench serves the web dashboard on loopback only (localhost, 127.0.0.1 or ::1); ` +
      'to watch it from another machine, forward the port (ssh -L 5665:127.0.0.1:5665 THIS_HOST)',
  );
}

function port(raw: string | undefined, label: string): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_PORT;
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < -1 || n > 65_535)
    return fail(`${label}=${raw} is not a port: use 1-65535, 0 for any free port, or -1 for no live page`);
  return n;
}

function period(raw: string | undefined, label: string): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_PERIOD_MS;
  let ms: number;
  try {
    // A bare number is milliseconds, as in every k6 duration.
    ms = parseDuration(raw);
  } catch (error) {
    return fail(`${label}: ${(error as Error).message}`);
  }
  if (!(ms >= 100)) return fail(`${label}=${raw} is too short: use 100ms or more (the default is 10s)`);
  return ms;
}

const PARAMETERS: Record<string, string> = {
  host: 'K6_WEB_DASHBOARD_HOST',
  port: 'K6_WEB_DASHBOARD_PORT',
  period: 'K6_WEB_DASHBOARD_PERIOD',
  open: 'K6_WEB_DASHBOARD_OPEN',
  export: 'K6_WEB_DASHBOARD_EXPORT',
};

interface Settings {
  values: Record<string, string | undefined>;
  /** What to call each value in an error: its variable, or the --out parameter it came from. */
  label: (name: string) => string;
}

/** The variables with `--out web-dashboard=...`'s parameters laid over them (each such --out turns it on). */
function withOutParameters(env: Record<string, string | undefined>, outArgs: readonly string[]): Settings {
  const fromOut = new Map<string, string>();
  const label = (name: string) => fromOut.get(name) ?? name;
  if (outArgs.length === 0) return { values: env, label };
  const out: Record<string, string | undefined> = { ...env, K6_WEB_DASHBOARD: 'true' };
  for (const arg of outArgs)
    for (const [key, value] of new URLSearchParams(arg)) {
      const name = PARAMETERS[key];
      if (!name)
        fail(
          `--out web-dashboard: unknown parameter '${key}': use ${Object.keys(PARAMETERS).join(', ')} (as in --out 'web-dashboard=port=0&export=report.html')`,
        );
      // A bare `open` means open=true.
      out[name] = key === 'open' && value === '' ? 'true' : value;
      fromOut.set(name, `--out web-dashboard ${key}`);
    }
  return { values: out, label };
}

/**
 * The dashboard the environment and the `--out web-dashboard` arguments (what follows `=`, "" for none) ask for, or
 * undefined when they ask for none; throws on a bad value.
 */
export function dashboardConfig(
  processEnv: Record<string, string | undefined>,
  outArgs: readonly string[] = [],
): DashboardConfig | undefined {
  if (bool('K6_NO_WEB_DASHBOARD', processEnv.K6_NO_WEB_DASHBOARD)) return undefined;
  const { values: env, label } = withOutParameters(processEnv, outArgs);
  const enabled = bool('K6_WEB_DASHBOARD', env.K6_WEB_DASHBOARD);
  const exportRaw = env.K6_WEB_DASHBOARD_EXPORT?.trim() ?? '';
  if (!enabled && exportRaw === '') return undefined;
  const p = port(env.K6_WEB_DASHBOARD_PORT, label('K6_WEB_DASHBOARD_PORT'));
  return {
    serve: enabled && p !== -1,
    host: loopbackHost(env.K6_WEB_DASHBOARD_HOST, label('K6_WEB_DASHBOARD_HOST')),
    port: p,
    periodMs: period(env.K6_WEB_DASHBOARD_PERIOD, label('K6_WEB_DASHBOARD_PERIOD')),
    exportPath: exportRaw === '' ? undefined : exportRaw,
    exportSource: exportRaw === '' ? undefined : label('K6_WEB_DASHBOARD_EXPORT'),
    openRequested: bool(label('K6_WEB_DASHBOARD_OPEN'), env.K6_WEB_DASHBOARD_OPEN),
  };
}

/** The variables an instance of `bench run --instances` must not inherit: the coordinator alone draws the page. */
export const DASHBOARD_VARIABLES = [
  'K6_WEB_DASHBOARD',
  'K6_NO_WEB_DASHBOARD',
  'K6_WEB_DASHBOARD_HOST',
  'K6_WEB_DASHBOARD_PORT',
  'K6_WEB_DASHBOARD_PERIOD',
  'K6_WEB_DASHBOARD_OPEN',
  'K6_WEB_DASHBOARD_EXPORT',
];
