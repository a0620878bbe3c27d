// The Response object scripts receive (docs/k6-behaviour.md §4.4): k6's field names, canonical header names, body per
// responseType, timings, error/error_code, and json(selector) over a GJSON subset.

import { parseHTML, type Selection } from '../modules/html';
import { statusErrorCode } from './error-codes';
import { get } from './gjson';

/** Go's textproto.CanonicalMIMEHeaderKey: "content-type" -> "Content-Type"; names with odd characters stay as is. */
export function canonicalHeaderName(name: string): string {
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) return name;
  let out = '';
  let upper = true;
  for (const c of name) {
    out += upper ? c.toUpperCase() : c.toLowerCase();
    upper = c === '-';
  }
  return out;
}

// Servers send the same few header names over and over: remember their canonical form.
const canonicalCache = new Map<string, string>();

function cachedCanonicalName(name: string): string {
  let canonical = canonicalCache.get(name);
  if (canonical === undefined) {
    canonical = canonicalHeaderName(name);
    if (canonicalCache.size < 1024) canonicalCache.set(name, canonical);
  }
  return canonical;
}

/** Flat [name, value, ...] -> { Canonical-Name: "v1, v2" } (k6 joins repeated headers with ", "). */
export function canonicalHeaders(flat: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = cachedCanonicalName(flat[i]);
    const prev = headers[name];
    headers[name] = prev === undefined ? flat[i + 1] : `${prev}, ${flat[i + 1]}`;
  }
  return headers;
}

export interface ResponseTimings {
  blocked: number;
  looking_up: number;
  connecting: number;
  tls_handshaking: number;
  sending: number;
  waiting: number;
  receiving: number;
  duration: number;
}

export interface ResponseCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  httpOnly: boolean;
  secure: boolean;
  maxAge: number;
  expires: number;
}

export interface RequestInfo {
  method: string;
  url: string;
  headers: Record<string, string[]>;
  body: string;
  cookies: Record<string, Array<{ name: string; value: string; replace: boolean }>>;
}

export interface ResponseInit {
  status: number;
  statusText: string;
  url: string;
  proto: string;
  headers: Record<string, string>;
  cookies: Record<string, ResponseCookie[]>;
  body: string | ArrayBuffer | null;
  timings: ResponseTimings;
  remoteIp: string;
  remotePort: number;
  tlsVersion: string;
  tlsCipherSuite: string;
  error: string;
  errorCode: number;
  /** Built on first read of res.request: most scripts never look at it. */
  request: () => RequestInfo;
  /** Sends a follow-up request as http.request() does (res.submitForm, res.clickLink); absent where none can go. */
  followUp?: (method: string, url: string, body: unknown, params: unknown) => unknown;
}

/** No OCSP stapling is checked: one shared, frozen answer for every response. */
const NO_OCSP = Object.freeze({
  status: 'unknown',
  produced_at: 0,
  this_update: 0,
  next_update: 0,
  revocation_reason: '',
  revoked_at: 0,
});

const NULL_BODY_MESSAGE =
  "the body is null so we can't transform it to JSON - this likely was because of a request error getting the response";

export class Response {
  status: number;
  status_text: string;
  url: string;
  proto: string;
  headers: Record<string, string>;
  cookies: Record<string, ResponseCookie[]>;
  body: string | ArrayBuffer | null;
  timings: ResponseTimings;
  remote_ip: string;
  remote_port: number;
  tls_version: string;
  tls_cipher_suite: string;
  ocsp: Readonly<{
    status: string;
    produced_at: number;
    this_update: number;
    next_update: number;
    revocation_reason: string;
    revoked_at: number;
  }>;
  error: string;
  error_code: number;
  #request: RequestInfo | (() => RequestInfo);
  #followUp: ResponseInit['followUp'];
  #parsed: { body: unknown; value: unknown } | undefined;

  constructor(init: ResponseInit) {
    this.status = init.status;
    this.status_text = init.statusText;
    this.url = init.url;
    this.proto = init.proto;
    this.headers = init.headers;
    this.cookies = init.cookies;
    this.body = init.body;
    this.timings = init.timings;
    this.remote_ip = init.remoteIp;
    this.remote_port = init.remotePort;
    this.tls_version = init.tlsVersion;
    this.tls_cipher_suite = init.tlsCipherSuite;
    this.ocsp = NO_OCSP;
    this.error = init.error;
    this.error_code = init.errorCode || statusErrorCode(init.status);
    this.#request = init.request;
    this.#followUp = init.followUp;
  }

  get request(): RequestInfo {
    if (typeof this.#request === 'function') this.#request = this.#request();
    return this.#request;
  }

  set request(value: RequestInfo) {
    this.#request = value;
  }

  /** JSON.stringify(res) shows `request` like k6 does, although it is a lazy accessor here. */
  toJSON(): Record<string, unknown> {
    return { ...(this as object), request: this.request };
  }

  /** Parses the body as JSON (cached per body); with a selector, returns the GJSON path's value or undefined. */
  json(selector?: string): unknown {
    const body = this.body;
    if (body === null || body === undefined) throw new Error(NULL_BODY_MESSAGE);
    if (this.#parsed === undefined || this.#parsed.body !== body) {
      const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        throw new Error(`cannot parse the response body as JSON: ${(err as Error).message}`);
      }
      this.#parsed = { body, value };
    }
    if (selector === undefined || selector === null || selector === '') return this.#parsed.value;
    return get(this.#parsed.value, String(selector));
  }

  /** k6's res.html(selector?): the body as a k6/html document, or the selector's matches in it. */
  html(selector?: unknown): Selection {
    if (this.body === null)
      throw new Error(
        "the body is null so we can't transform it to HTML - this likely was because of a request error getting the response",
      );
    const text = typeof this.body === 'string' ? this.body : Buffer.from(this.body).toString('utf8');
    const doc = parseHTML(text, this.url);
    return selector === undefined ? doc : doc.find(selector);
  }

  #send(method: string, url: string, body: unknown, params: unknown): unknown {
    if (!this.#followUp) throw new Error('this response cannot send a follow-up request');
    return this.#followUp(method, url, body, params);
  }

  /**
   * k6's res.submitForm({ formSelector, fields, submitSelector, params }): the form's fields (and its submit button's
   * name and value) sent to its action, resolved against this response's URL, by its method (GET: in the query).
   */
  submitForm(options?: unknown): unknown {
    const o = (options ?? {}) as {
      formSelector?: unknown;
      submitSelector?: unknown;
      fields?: unknown;
      params?: unknown;
    };
    const formSelector = o.formSelector === undefined ? 'form' : String(o.formSelector);
    const submitSelector = o.submitSelector === undefined ? '[type="submit"]' : String(o.submitSelector);
    const form = this.html(formSelector);
    if (form.size() === 0)
      throw new Error(`no form found for selector '${formSelector}' in response '${this.url}'`);
    const methodAttr = form.attr('method');
    const method = methodAttr === undefined ? 'GET' : String(methodAttr).toUpperCase();
    const actionAttr = form.attr('action');
    const target = new URL(actionAttr === undefined ? this.url : String(actionAttr), this.url);
    const values: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(form.first().serializeObject()))
      values[k] = Array.isArray(v) ? v[0] : v;
    const submit = form.find(submitSelector);
    const submitName = submit.attr('name');
    const submitValue = submit.val();
    if (submitName !== undefined && submitValue !== undefined) values[String(submitName)] = submitValue;
    if (o.fields && typeof o.fields === 'object') Object.assign(values, o.fields);
    if (method === 'GET') {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(values)) query.append(k, String(v));
      target.search = query.toString();
      return this.#send(method, target.href, null, o.params ?? null);
    }
    return this.#send(method, target.href, values, o.params ?? null);
  }

  /** k6's res.clickLink({ selector, params }): a GET of the first matching element's href, resolved against this URL. */
  clickLink(options?: unknown): unknown {
    const o = (options ?? {}) as { selector?: unknown; params?: unknown };
    const selector = o.selector === undefined ? 'a[href]' : String(o.selector);
    const link = this.html(selector);
    if (link.size() === 0)
      throw new Error(`no element found for selector '${selector}' in response '${this.url}'`);
    const href = link.attr('href');
    if (href === undefined)
      throw new Error(
        `no valid href attribute value found on element '${selector}' in response '${this.url}'`,
      );
    return this.#send('GET', new URL(String(href), this.url).href, undefined, o.params ?? null);
  }
}
