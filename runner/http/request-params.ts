// k6 request params (docs/k6-behaviour.md §4.3) -> a checked, normalised form. Anything invalid is a RequestParamsError,
// which the module turns into a "Request Failed" status-0 response (or a throw with `throw: true`), like k6.

import { parseDuration } from '../../core/durations';
import type { HttpModuleOptions } from '../modules/module-host';
import { type ExpectedStatuses, toResponseCallback } from './expected-statuses';

type ResponseType = 'text' | 'binary' | 'none';
type Compression = 'gzip' | 'deflate' | 'br' | 'zstd';

export interface NormalisedParams {
  /** Header name -> value, names as written (case kept for the wire; lookups are case-insensitive). */
  headers: Array<[string, string]>;
  tags: Record<string, string>;
  timeoutMs: number;
  responseType: ResponseType;
  maxRedirects: number;
  /** True when params.redirects was given (then no warning when the limit is reached). */
  redirectsExplicit: boolean;
  compression: Compression[];
  /** undefined: use the module's callback; null: disabled. */
  responseCallback: ExpectedStatuses | null | undefined;
  auth: 'basic' | 'digest' | undefined;
  /** Request-scoped cookies; `replace` overrides a jar cookie of the same name. */
  cookies: Array<{ name: string; value: string; replace: boolean }>;
  /** A CookieJar object from params.jar, checked by the caller. */
  jar: unknown;
  throw: boolean;
}

export class RequestParamsError extends Error {
  override name = 'RequestParamsError';
}

/** k6's default request timeout. */
export const DEFAULT_TIMEOUT_MS = 60_000;

const RESPONSE_TYPES = new Set(['text', 'binary', 'none']);
const COMPRESSIONS = new Set(['gzip', 'deflate', 'br', 'zstd']);

/** Tag values must be strings, numbers or booleans (k6 throws a TypeError for anything else). */
export function tagsFrom(value: unknown, where: string): Record<string, string> {
  const tags: Record<string, string> = {};
  if (value === undefined || value === null) return tags;
  if (typeof value !== 'object') throw new TypeError(`${where}: tags must be an object, got ${typeof value}`);
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') tags[key] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') tags[key] = String(v);
    else
      throw new TypeError(
        `${where}: invalid value for tag "${key}": only strings, numbers and booleans are allowed`,
      );
  }
  return tags;
}

export function normaliseParams(params: unknown, options: HttpModuleOptions): NormalisedParams {
  const p = (params ?? {}) as Record<string, unknown>;
  if (typeof p !== 'object') throw new RequestParamsError(`params must be an object, got ${typeof params}`);
  const headers: Array<[string, string]> = [];
  if (p.headers !== undefined && p.headers !== null) {
    if (typeof p.headers !== 'object') throw new RequestParamsError('params.headers must be an object');
    for (const [name, value] of Object.entries(p.headers)) {
      if (value === undefined || value === null) continue;
      headers.push([name, String(value)]);
    }
  }
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (p.timeout !== undefined && p.timeout !== null) {
    try {
      timeoutMs = parseDuration(p.timeout);
    } catch (err) {
      throw new RequestParamsError(`params.timeout: ${(err as Error).message}`);
    }
    if (timeoutMs < 0)
      throw new RequestParamsError(`params.timeout must not be negative, got ${String(p.timeout)}`);
  }
  let responseType: ResponseType = options.discardResponseBodies ? 'none' : 'text';
  if (p.responseType !== undefined && p.responseType !== null) {
    if (!RESPONSE_TYPES.has(p.responseType as string)) {
      throw new RequestParamsError(
        `invalid responseType "${String(p.responseType)}": use "text", "binary" or "none"`,
      );
    }
    responseType = p.responseType as ResponseType;
  }
  let maxRedirects = options.maxRedirects;
  const redirectsExplicit = p.redirects !== undefined && p.redirects !== null;
  if (redirectsExplicit) {
    const r = Number(p.redirects);
    if (!Number.isInteger(r) || r < 0) {
      throw new RequestParamsError(
        `params.redirects must be a non-negative integer, got ${String(p.redirects)}`,
      );
    }
    maxRedirects = r;
  }
  const compression: Compression[] = [];
  if (typeof p.compression === 'string' && p.compression !== '') {
    for (const part of p.compression.split(',')) {
      const name = part.trim();
      if (!COMPRESSIONS.has(name)) {
        throw new RequestParamsError(
          `unknown compression algorithm "${name}": use gzip, deflate, br or zstd`,
        );
      }
      compression.push(name as Compression);
    }
  }
  let auth: NormalisedParams['auth'];
  if (p.auth !== undefined && p.auth !== null && p.auth !== '') {
    if (p.auth !== 'basic' && p.auth !== 'digest') {
      throw new RequestParamsError(
        `params.auth "${String(p.auth)}" is not supported by bench's runner (only "basic" and "digest"); send the Authorization header yourself`,
      );
    }
    auth = p.auth;
  }
  const cookies: NormalisedParams['cookies'] = [];
  if (p.cookies && typeof p.cookies === 'object') {
    for (const [name, v] of Object.entries(p.cookies)) {
      if (v && typeof v === 'object') {
        const c = v as { value?: unknown; replace?: unknown };
        cookies.push({ name, value: String(c.value ?? ''), replace: c.replace === true });
      } else {
        cookies.push({ name, value: String(v ?? ''), replace: false });
      }
    }
  }
  return {
    headers,
    tags: tagsFrom(p.tags, 'params.tags'),
    timeoutMs,
    responseType,
    maxRedirects,
    redirectsExplicit,
    compression,
    responseCallback:
      p.responseCallback !== undefined ? toResponseCallback(p.responseCallback, 'params') : undefined,
    auth,
    cookies,
    jar: p.jar,
    throw: typeof p.throw === 'boolean' ? p.throw : options.throw,
  };
}
