// One k6 request from the VU's side, across its redirect hops: builds each hop's wire request (headers, cookies,
// body), and for each reply emits the hop's samples, stores its cookies, follows redirects, and finally builds the
// Response. Transport-agnostic: sync calls, batch and asyncRequest all drive it the same way.
import type { ModuleHost } from '../modules/module-host';
import type { CookieJar } from './cookie-jar';
import { responseCookies } from './cookie-jar';
import { digestAuthorization, parseDigestChallenge } from './digest-auth';
import { K6_ERROR } from './error-codes';
import type { ExpectedStatuses } from './expected-statuses';
import { requestDump, responseDump } from './http-debug';
import { type ExchangeTagMemo, exchangeSamples, type HttpTagFlags, type TagContext } from './http-samples';
import type { OutgoingRequest } from './io-channel';
import { type RedirectHop, redirectHop } from './redirects';
import type { EncodedBody } from './request-body';
import type { NormalisedParams } from './request-params';
import { maskCredentials, type RequestTarget } from './request-url';
import {
  canonicalHeaderName,
  canonicalHeaders,
  type RequestInfo,
  Response,
  type ResponseTimings,
} from './response';
import { responseBody } from './response-body';
import type { PhaseTimings, ReplyMessage } from './wire';

/** What a flow needs from its VU (one per VU realm, see vu-http.ts). */
export interface FlowContext {
  host: ModuleHost;
  /** The module-level callback (http.setResponseCallback); null disables http_req_failed. */
  defaultCallback(): ExpectedStatuses | null;
  vuJar: CookieJar;
  tagFlags: HttpTagFlags;
  /** Reuses the tags of repeated identical exchanges (see ExchangeTagMemo). */
  tagMemo: ExchangeTagMemo;
  /** http.request() for res.submitForm() and res.clickLink(). */
  followUp?: (method: string, url: string, body: unknown, params: unknown) => unknown;
}

/** k6's res.timings from the wire phases (built field by field: spreading is slow on this path). */
function responseTimings(t: PhaseTimings): ResponseTimings {
  return {
    blocked: t.blocked,
    looking_up: 0,
    connecting: t.connecting,
    tls_handshaking: t.tls_handshaking,
    sending: t.sending,
    waiting: t.waiting,
    receiving: t.receiving,
    duration: t.sending + t.waiting + t.receiving,
  };
}

/** Thrown to the script for a failed request when `throw` is on. */
class RequestFailedError extends Error {
  override name = 'RequestFailedError';
}

function hasHeader(headers: ReadonlyArray<[string, string]>, name: string): boolean {
  const lower = name.toLowerCase();
  return headers.some(([n]) => n.toLowerCase() === lower);
}

function withoutHeader(headers: Array<[string, string]>, name: string): Array<[string, string]> {
  const lower = name.toLowerCase();
  return headers.filter(([n]) => n.toLowerCase() !== lower);
}

export class RequestFlow {
  private method: string;
  private url!: URL;
  /** this.url.href, .origin and path + query, read once per hop (URL getters build strings on every read). */
  private href = '';
  private origin = '';
  private path = '';
  private tagUrl: string;
  private tagName: string;
  private body: ArrayBuffer | null;
  /** Length of the body in the VU's shared body buffer, -1 when none (see shared-body.ts). */
  private sharedBody: number;
  private headers: Array<[string, string]>;
  private hops = 0;
  /** Exchanges sent so far: redirect hops and digest auth's second request. */
  private sent = 0;
  /** `params.auth: "digest"`: the URL's credentials, and whether the current hop's challenge was answered. */
  private readonly digest: { user: string; password: string; answered: boolean } | undefined;
  private readonly deadline: number;
  private readonly jar: CookieJar;
  private readonly tagContext: TagContext;
  /** The body as k6 shows it in res.request.body ("" for binary and multipart bodies: not decoded again). */
  private readonly bodyText: string;

  constructor(
    private readonly ctx: FlowContext,
    method: string,
    target: RequestTarget,
    encoded: EncodedBody,
    private readonly params: NormalisedParams,
    jar: CookieJar | undefined,
  ) {
    this.bodyText = encoded.text;
    this.method = method;
    this.setUrl(target.url);
    this.tagUrl = target.tagUrl;
    this.tagName = target.tagName;
    this.body = encoded.bytes;
    this.sharedBody = encoded.shared ?? -1;
    this.jar = jar ?? ctx.vuJar;
    this.deadline = performance.now() + params.timeoutMs;
    const host = ctx.host;
    this.tagContext = {
      vuTags: host.tags(),
      userTags: params.tags,
      flags: ctx.tagFlags,
      metadata: host.metadata(),
    };
    let headers = params.headers.slice();
    const userLength = headers.find(([n]) => n.toLowerCase() === 'content-length');
    if (userLength) {
      // undici computes Content-Length from the body; k6 drops a user value that disagrees, with a warning.
      headers = withoutHeader(headers, 'content-length');
      const actual = encoded.bytes?.byteLength ?? encoded.shared ?? 0;
      if (Number(userLength[1]) !== actual) {
        host.log(
          'warn',
          `Content-Length header ${userLength[1]} does not match the body size ${actual}; the body size is sent`,
        );
      }
    }
    const userAgent = host.httpOptions.userAgent;
    if (userAgent && !hasHeader(headers, 'user-agent')) headers.push(['User-Agent', userAgent]);
    if (encoded.contentType && !hasHeader(headers, 'content-type'))
      headers.push(['Content-Type', encoded.contentType]);
    if (params.auth === 'digest') {
      // k6 sends the first request without credentials (no Basic header from the URL) and answers the 401.
      this.digest = { ...(target.credentials ?? { user: '', password: '' }), answered: false };
    } else if (target.basicAuth && !hasHeader(headers, 'authorization')) {
      headers.push(['Authorization', target.basicAuth]);
    }
    this.headers = headers;
  }

  private setUrl(url: URL): void {
    this.url = url;
    this.href = url.href;
    this.origin = url.origin;
    this.path = `${url.pathname}${url.search}`;
  }

  /** host:port of the current hop (batchPerHost). */
  targetHost(): string {
    return this.url.host;
  }

  /** The wire request of the current hop. */
  next(): OutgoingRequest {
    const flat: string[] = [];
    for (const [name, value] of this.headers) flat.push(name, value);
    const cookie = this.cookieHeader();
    if (cookie) flat.push('Cookie', cookie);
    const request: OutgoingRequest = {
      method: this.method,
      origin: this.origin,
      path: this.path,
      headers: flat,
      body: this.body,
      sharedBody: this.sharedBody,
      // The first hop gets the script's timeout whole: the I/O side measures it from the moment it starts the
      // exchange, the same instant http_req_blocked starts, so a timed-out request reports blocked + duration equal to
      // its timeout. Later hops get what is left. Whole milliseconds: Node keeps one timer list per distinct duration.
      timeoutMs: Math.max(
        1,
        Math.ceil(this.sent++ === 0 ? this.params.timeoutMs : this.deadline - performance.now()),
      ),
      discardBody: this.params.responseType === 'none',
    };
    const debug = this.ctx.host.httpOptions.httpDebug;
    if (debug) {
      this.ctx.host.log(
        'info',
        requestDump(request.method, this.url, request.headers, this.bodyText, debug),
        {
          source: 'http-debug',
        },
      );
    }
    return request;
  }

  /** Settles one hop: returns the final Response, or undefined when a redirect hop follows (call next() again). */
  settle(reply: ReplyMessage): Response | undefined {
    const host = this.ctx.host;
    host.countData(reply.sentBytes, reply.receivedBytes);
    const callback =
      this.params.responseCallback === undefined ? this.ctx.defaultCallback() : this.params.responseCallback;
    // k6 expects a 401 as the first response of a digest request (that is how the challenge arrives).
    const expected = callback
      ? this.digest && this.sent === 1
        ? reply.status === 401
        : callback.matches(reply.status)
      : undefined;
    host.emit(
      exchangeSamples(
        {
          method: this.method,
          tagUrl: this.tagUrl,
          tagName: this.tagName,
          status: reply.status,
          proto: reply.proto,
          tlsVersion: reply.tlsVersion,
          error: reply.error,
          timings: reply.timings,
          endTime: reply.endTime,
          expected,
        },
        this.tagContext,
        this.ctx.tagMemo,
      ),
    );
    if (host.httpOptions.httpDebug) {
      host.log('info', responseDump(reply, host.httpOptions.httpDebug), { source: 'http-debug' });
    }
    const setCookies: string[] = [];
    let location: string | undefined;
    let contentEncoding: string | undefined;
    for (let i = 0; i + 1 < reply.headers.length; i += 2) {
      const name = reply.headers[i].toLowerCase();
      if (name === 'set-cookie') setCookies.push(reply.headers[i + 1]);
      else if (name === 'location') location = reply.headers[i + 1];
      else if (name === 'content-encoding') contentEncoding = reply.headers[i + 1];
    }
    this.jar.storeFrom(setCookies, this.href);
    if (
      this.digest &&
      !this.digest.answered &&
      !reply.error &&
      reply.status === 401 &&
      this.answerDigest(reply)
    )
      return undefined;
    const hop = reply.error ? undefined : redirectHop(reply.status, this.method, location, this.url);
    if (hop) {
      if (this.hops < this.params.maxRedirects) {
        this.redirect(hop, reply);
        return undefined;
      }
      if (!this.params.redirectsExplicit && this.params.maxRedirects > 0) {
        host.log(
          'warn',
          `Stopped after ${this.hops} redirects and returned the redirection; pass { redirects: n } in request params or set global maxRedirects to silence this`,
          { url: this.tagUrl },
        );
      }
    }
    return this.response(reply, setCookies, contentEncoding);
  }

  /** Sets the Authorization header that answers the reply's digest challenge; false when there is none to answer. */
  private answerDigest(reply: ReplyMessage): boolean {
    const digest = this.digest as NonNullable<RequestFlow['digest']>;
    digest.answered = true;
    for (let i = 0; i + 1 < reply.headers.length; i += 2) {
      if (reply.headers[i].toLowerCase() !== 'www-authenticate') continue;
      const challenge = parseDigestChallenge(reply.headers[i + 1]);
      if (!challenge) continue;
      this.body = reply.requestBody ?? this.body;
      const authorization = digestAuthorization(challenge, {
        method: this.method,
        uri: this.path,
        user: digest.user,
        password: digest.password,
        body: this.body ? new Uint8Array(this.body) : null,
      });
      if (!authorization) return false;
      this.headers = [...withoutHeader(this.headers, 'authorization'), ['Authorization', authorization]];
      return true;
    }
    return false;
  }

  /** Moves to the next hop of a redirect. */
  private redirect(hop: RedirectHop, reply: ReplyMessage): void {
    this.hops++;
    if (this.digest?.answered) {
      // Each hop answers its own challenge, as k6's digest transport does per round trip.
      this.digest.answered = false;
      this.headers = withoutHeader(this.headers, 'authorization');
    }
    this.method = hop.method;
    if (hop.resendBody) {
      this.body = reply.requestBody ?? this.body;
    } else {
      this.body = null;
      this.sharedBody = -1;
      this.headers = withoutHeader(withoutHeader(this.headers, 'content-type'), 'content-encoding');
    }
    if (hop.crossHost) this.headers = withoutHeader(withoutHeader(this.headers, 'authorization'), 'cookie');
    this.setUrl(hop.url);
    this.tagUrl = maskCredentials(hop.url.href);
    if (this.params.tags.name === undefined) this.tagName = this.tagUrl;
  }

  private response(reply: ReplyMessage, setCookies: string[], contentEncoding: string | undefined): Response {
    const decoded = reply.error
      ? { body: null, failure: undefined }
      : responseBody(reply.body, reply.status, this.params.responseType, contentEncoding);
    const error = reply.error?.message ?? decoded.failure ?? '';
    const errorCode = reply.error?.code ?? (decoded.failure ? K6_ERROR.decompression : 0);
    const body = decoded.body;
    const response = new Response({
      status: reply.status,
      statusText: reply.status ? `${reply.status} ${reply.statusText}` : '',
      url: this.href,
      proto: reply.proto,
      headers: canonicalHeaders(reply.headers),
      cookies: responseCookies(setCookies, this.url),
      body,
      timings: responseTimings(reply.timings),
      remoteIp: reply.remoteIp,
      remotePort: reply.remotePort,
      tlsVersion: reply.tlsVersion,
      tlsCipherSuite: reply.tlsCipherSuite,
      error,
      errorCode,
      request: () => this.requestInfo(),
      followUp: this.ctx.followUp,
    });
    if (error) {
      this.ctx.host.log('warn', 'Request Failed', { error });
      if (this.params.throw) throw new RequestFailedError(error);
    }
    return response;
  }

  private cookieHeader(): string {
    const href = this.href;
    const own = this.params.cookies;
    const pairs: string[] = [];
    for (const [name, value] of this.jar.cookiePairs(href)) {
      if (!own.some((c) => c.name === name && c.replace)) pairs.push(`${name}=${value}`);
    }
    for (const c of own) pairs.push(`${c.name}=${c.value}`);
    return pairs.join('; ');
  }

  private requestInfo(): RequestInfo {
    const headers: Record<string, string[]> = {};
    for (const [name, value] of this.headers) {
      const key = canonicalHeaderName(name);
      headers[key] = [...(headers[key] ?? []), value];
    }
    const cookies: RequestInfo['cookies'] = {};
    for (const [name, value] of this.jar.cookiePairs(this.href)) {
      cookies[name] = [...(cookies[name] ?? []), { name, value, replace: false }];
    }
    for (const c of this.params.cookies) cookies[c.name] = [...(cookies[c.name] ?? []), { ...c }];
    return { method: this.method, url: this.href, headers, body: this.bodyText, cookies };
  }
}
