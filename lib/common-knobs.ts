// The knobs every experiment reads alike, with the same defaults and checks: the target (the local emulator, or the
// real service with an API key), NAMESPACE, SEED, vector and answer sizes, query VUs, cleanup and the results
// directory; each refusal names the variable. Pure: the experiments' configs call these.
import { EnvError, EnvReader, type EnvRecord } from './env';
import { type KnobValues, knob } from './knobs';

/** Where the load goes. The API key is deliberately not part of this (it must never reach results or logs). */
export interface Target {
  /** `emulator`: a loopback bench emulator; `turbopuffer`: the real service (costs money). */
  kind: 'emulator' | 'turbopuffer';
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:8787` or `https://gcp-us-central1.turbopuffer.com`. */
  baseUrl: string;
}

/** Reads the API key on its own so it never travels inside the config object. */
export function readApiKey(env: EnvRecord): string | undefined {
  return new EnvReader(env).optionalString('TURBOPUFFER_API_KEY');
}

export function readTarget(e: EnvReader): Target {
  const key = e.optionalString('TURBOPUFFER_API_KEY');
  const explicitUrl = e.optionalString('TURBOPUFFER_BASE_URL');
  const region = e.optionalString('TURBOPUFFER_REGION');
  if (region !== undefined && !/^[a-z0-9]+(-[a-z0-9]+)+$/.test(region))
    throw new EnvError('TURBOPUFFER_REGION', `"${region}" is not a region name such as gcp-us-central1`);
  if (key === undefined) {
    const baseUrl = checkUrl('TURBOPUFFER_BASE_URL', explicitUrl ?? 'http://127.0.0.1:8787');
    if (!isLoopback(baseUrl))
      throw new EnvError(
        'TURBOPUFFER_BASE_URL',
        `${baseUrl} is not a loopback address: without TURBOPUFFER_API_KEY the target is the local emulator ` +
          '(http://127.0.0.1:PORT, http://localhost:PORT or http://[::1]:PORT)',
      );
    return { kind: 'emulator', baseUrl };
  }
  if (explicitUrl !== undefined) {
    const baseUrl = checkUrl('TURBOPUFFER_BASE_URL', explicitUrl.replace('{region}', region ?? '{region}'));
    if (baseUrl.includes('{region}'))
      throw new EnvError('TURBOPUFFER_BASE_URL', 'contains {region}: set TURBOPUFFER_REGION as well');
    // An emulator started with --api-key is still the emulator: no cost, no confirmation.
    return { kind: isLoopback(baseUrl) ? 'emulator' : 'turbopuffer', baseUrl };
  }
  if (region === undefined)
    throw new EnvError(
      'TURBOPUFFER_REGION',
      'is required with TURBOPUFFER_API_KEY (e.g. gcp-us-central1), unless TURBOPUFFER_BASE_URL is set',
    );
  return { kind: 'turbopuffer', baseUrl: `https://${region}.turbopuffer.com` };
}

function checkUrl(name: string, url: string): string {
  const match = /^(https?):\/\/([^/?#]+)(\/[^?#]*)?$/.exec(url);
  if (!match) throw new EnvError(name, `"${url}" is not an http(s) base URL such as http://127.0.0.1:8787`);
  if (match[2].includes('@'))
    throw new EnvError(name, 'must not contain credentials (user:password@); use TURBOPUFFER_API_KEY');
  return url.replace(/\/+$/, '');
}

/** True when the URL's host is a loopback name or address (127.0.0.0/8, ::1, localhost). */
export function isLoopback(baseUrl: string): boolean {
  const host = /^https?:\/\/(\[[^\]]+\]|[^/:]+)/.exec(baseUrl)?.[1]?.toLowerCase() ?? '';
  return (
    host === 'localhost' ||
    host === '[::1]' ||
    /^127\.(25[0-5]|2[0-4]\d|1?\d?\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)$/.test(host)
  );
}

export function readNamespace(e: EnvReader): string | undefined {
  const ns = e.optionalString('NAMESPACE');
  if (ns !== undefined && !/^[A-Za-z0-9._-]{1,128}$/.test(ns))
    throw new EnvError(
      'NAMESPACE',
      `"${ns}" is not a namespace name: use 1-128 characters of A-Z a-z 0-9 - _ .`,
    );
  return ns;
}

function readSeed(e: EnvReader): number | undefined {
  return e.raw('SEED') === undefined ? undefined : e.int('SEED', 0, { min: 0, max: 2 ** 32 - 1 });
}

/** SEED as given, or a fresh random one (printed by setup() and recorded, so a rerun can reuse it). */
export function drawSeed(seed?: number): number {
  return seed ?? Math.floor(Math.random() * 2 ** 32);
}

/** DIMS, within turbopuffer's limit of 10,752 dimensions (docs/turbopuffer-api.md §2.5). */
export function readDims(e: EnvReader): number {
  return e.int('DIMS', 768, { min: 1, max: 10752 });
}

/** TOP_K, within turbopuffer's limit of 10,000 results per query (docs/turbopuffer-api.md §3.1). */
export function readTopK(e: EnvReader): number {
  return e.int('TOP_K', 10, { min: 1, max: 10000 });
}

/** How a query scenario loads the target: an open model at a fixed rate, or closed-loop workers. */
export type QueryMode = 'arrival' | 'workers';

/** The knobs that size the query load, resolved (same names and meaning in both experiments). */
export interface QueryLoad {
  mode: QueryMode;
  /** arrival: queries started per second. */
  rate: number;
  /** arrival: VUs pre-allocated and at most. */
  vus: number;
  maxVus: number;
  /** workers: closed-loop VUs, each sending its next query when its last one answered. */
  workers: number;
}

/** The knobs of QUERY_MODE=arrival alone (the launcher sets a profile's aside when the caller picks workers). */
export const ARRIVAL_ONLY = ['QUERY_RATE', 'QUERY_VUS', 'QUERY_MAX_VUS'] as const;

/**
 * The query-load knobs with an experiment's defaults. Mode-specific knobs read undefined when unset, so
 * resolveQueryLoad can refuse a knob the chosen mode would ignore.
 */
export function queryLoadKnobs(d: { rate: number; workers: number }) {
  const optionalInt = (e: EnvReader, name: string, bounds: { min: number; max: number }) =>
    e.raw(name) === undefined ? undefined : e.int(name, 0, bounds);
  return {
    QUERY_MODE: knob(
      'arrival',
      'arrival: queries start at QUERY_RATE per second (open model); workers: QUERY_WORKERS closed-loop workers',
      (e, n) => e.oneOf<QueryMode>(n, ['arrival', 'workers'], 'arrival'),
    ),
    QUERY_RATE: knob(
      String(d.rate),
      'arrival mode: queries started per second (a fraction runs as a whole rate per a longer timeUnit)',
      (e, n) => (e.raw(n) === undefined ? undefined : readQueryRate(e, n, d.rate)),
    ),
    QUERY_VUS: knob(
      'max(2, QUERY_RATE)',
      'arrival mode: VUs pre-allocated (one per query/s: a stall under a second delays starts, drops none)',
      (e, n) => optionalInt(e, n, { min: 1, max: 100_000 }),
    ),
    QUERY_MAX_VUS: knob('QUERY_VUS', 'arrival mode: most VUs the scenario may use', (e, n) =>
      optionalInt(e, n, { min: 1, max: 100_000 }),
    ),
    QUERY_WORKERS: knob(
      String(d.workers),
      'workers mode: closed-loop VUs, each sending its next query as soon as its last one answered',
      (e, n) => optionalInt(e, n, { min: 1, max: 10_000 }),
    ),
  };
}

/** QUERY_RATE: 0.001 to 100,000 queries per second, at most three decimals (k6 takes only whole rates per timeUnit). */
function readQueryRate(e: EnvReader, name: string, dflt: number): number {
  const rate = e.number(name, dflt, { min: 0.001, max: 100_000 });
  if (Math.abs(rate * 1000 - Math.round(rate * 1000)) > 1e-6)
    throw new EnvError(
      name,
      `${rate} has more than three decimals: use e.g. ${Math.round(rate * 1000) / 1000}`,
    );
  return rate;
}

type QueryLoadValues = KnobValues<ReturnType<typeof queryLoadKnobs>>;

/** The load from its knobs: the mode's defaults filled in, a knob of the other mode refused, VUs checked. */
export function resolveQueryLoad(k: QueryLoadValues, d: { rate: number; workers: number }): QueryLoad {
  if (k.QUERY_MODE === 'workers') {
    for (const name of ARRIVAL_ONLY)
      if (k[name] !== undefined)
        throw new EnvError(
          name,
          'has no effect with QUERY_MODE=workers: unset it, or size the load with QUERY_WORKERS',
        );
  } else if (k.QUERY_WORKERS !== undefined)
    throw new EnvError(
      'QUERY_WORKERS',
      'has no effect with QUERY_MODE=arrival (the default): set QUERY_MODE=workers, or unset it',
    );
  const rate = k.QUERY_RATE ?? d.rate;
  const vus = k.QUERY_VUS ?? Math.max(2, Math.ceil(rate));
  const maxVus = k.QUERY_MAX_VUS ?? vus;
  if (maxVus < vus) throw new EnvError('QUERY_MAX_VUS', `${maxVus} is below QUERY_VUS=${vus}`);
  return { mode: k.QUERY_MODE, rate, vus, maxVus, workers: k.QUERY_WORKERS ?? d.workers };
}

/** The load's knobs under their names for the result JSON (the other mode's knobs as null). */
export function queryLoadRecord(l: QueryLoad): Record<string, string | number | null> {
  const arrival = l.mode === 'arrival';
  return {
    QUERY_MODE: l.mode,
    QUERY_RATE: arrival ? l.rate : null,
    QUERY_VUS: arrival ? l.vus : null,
    QUERY_MAX_VUS: arrival ? l.maxVus : null,
    QUERY_WORKERS: arrival ? null : l.workers,
  };
}

/** CLEANUP: delete the namespace at the end (also after a failed setup) when this run created it. */
function readCleanup(e: EnvReader): boolean {
  return e.bool('CLEANUP', true);
}

/** Where runs write their result files by default: a folder git ignores (`make publish` copies a run out). */
export const DEFAULT_RESULTS_DIR = 'runs';

/** RESULTS_DIR without trailing slashes (result paths append `/<file>`). */
export function readResultsDir(e: EnvReader): string {
  return e.string('RESULTS_DIR', DEFAULT_RESULTS_DIR).replace(/\/+$/, '');
}

/** The target's knobs (resolved together by readTarget; the key is only ever checked for presence). */
export const TARGET_KNOBS = {
  TURBOPUFFER_API_KEY: knob(
    'unset',
    'API key of the real service; unset = the local emulator. Sent only in the Authorization header, never recorded',
    (e, n) => e.raw(n) !== undefined,
  ),
  TURBOPUFFER_REGION: knob('unset', 'region of the real service, e.g. gcp-us-central1', (e, n) =>
    e.optionalString(n),
  ),
  TURBOPUFFER_BASE_URL: knob(
    'http://127.0.0.1:8787',
    'base URL (with a key: instead of the region URL; without: a loopback emulator only)',
    (e, n) => e.optionalString(n),
  ),
  TPUF_BENCH_CONFIRM_COST: knob(
    '0',
    "1 accepts the real service's bill; without it such a run is refused",
    (e, n) => e.bool(n, false),
  ),
};

/** Knobs every experiment has with the same meaning and default. */
export const RUN_KNOBS = {
  SEED: knob(
    'random',
    'seed of every vector (and attribute value); printed and recorded, so a rerun can reuse it',
    (e) => readSeed(e),
  ),
  DIMS: knob('768', 'vector dimensions (f32)', (e) => readDims(e)),
  TOP_K: knob('10', 'results per query', (e) => readTopK(e)),
  CLEANUP: knob('1', 'delete the namespaces this run created at the end (also after a failed setup)', (e) =>
    readCleanup(e),
  ),
  RESULTS_DIR: knob(
    DEFAULT_RESULTS_DIR,
    'where handleSummary writes the .md and .json result (runs/ is ignored by git; make publish copies a run out)',
    (e) => readResultsDir(e),
  ),
};

/** How setup() seeds a fresh namespace: the same in every experiment that seeds one (lib/seeding.ts). */
export const SEEDING_KNOBS = {
  SEED_BATCH_ROWS: knob('1000', 'rows per write request while seeding', (e, n) =>
    e.int(n, 1000, { min: 1, max: 100_000 }),
  ),
  SETUP_TIMEOUT_S: knob('1800', 'seeding plus indexing may take this long', (e, n) =>
    e.int(n, 1800, { min: 10 }),
  ),
};

/** Set by the make targets (cli/experiments/with-emulator.ts) so the result records them; a k6 script cannot ask. */
export const LAUNCHER_KNOBS = {
  BENCH_RUNNER_VERSION: knob(
    'unknown',
    "the runner's version, recorded in the result (set by make)",
    (e, n) => e.string(n, 'unknown'),
  ),
  BENCH_NODE_VERSION: knob('unknown', 'the Node.js version, recorded in the result (set by make)', (e, n) =>
    e.string(n, 'unknown'),
  ),
};
