// The knobs every experiment reads alike, with the same defaults and checks: the target (the local emulator, or the
// real service with an API key), NAMESPACE, SEED, vector and answer sizes, query VUs, cleanup and the results
// directory; each refusal names the variable. Pure: the experiments' configs call these.
import { EnvError, EnvReader, type EnvRecord } from './env';

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

export function readSeed(e: EnvReader): number | undefined {
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

/**
 * QUERY_VUS: by default one VU per query started each second (at least 2), so a stall shorter than a second delays
 * arrivals instead of dropping them.
 */
export function readQueryVus(e: EnvReader, queryRate: number): number {
  return e.int('QUERY_VUS', Math.max(2, Math.ceil(queryRate)), { min: 1 });
}

/** QUERY_MAX_VUS: QUERY_VUS unless set (checkQueryMaxVus refuses less). */
export function readQueryMaxVus(e: EnvReader, queryVus: number): number {
  return e.int('QUERY_MAX_VUS', queryVus, { min: 1 });
}

export function checkQueryMaxVus(c: { queryVus: number; queryMaxVus: number }): void {
  if (c.queryMaxVus < c.queryVus)
    throw new EnvError('QUERY_MAX_VUS', `${c.queryMaxVus} is below QUERY_VUS=${c.queryVus}`);
}

/** CLEANUP: delete the namespace at the end (also after a failed setup) when this run created it. */
export function readCleanup(e: EnvReader): boolean {
  return e.bool('CLEANUP', true);
}

/** RESULTS_DIR without trailing slashes (result paths append `/<file>`). */
export function readResultsDir(e: EnvReader): string {
  return e.string('RESULTS_DIR', 'results').replace(/\/+$/, '');
}
