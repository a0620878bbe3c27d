// The k6/http state of one VU realm (its jar, its response callback, its channel to the I/O worker) and the three
// ways a script sends requests: blocking (get/post/.../request), batch, and asyncRequest.
import { isArrayBuffer } from '../modules/cross-realm';
import type { ModuleHost } from '../modules/module-host';
import { batchItem, type PendingEntry, runBatch, runBatchAsync } from './batch';
import { CookieJar } from './cookie-jar';
import { K6_ERROR } from './error-codes';
import { DEFAULT_EXPECTED, type ExpectedStatuses, toResponseCallback } from './expected-statuses';
import { ExchangeTagMemo, type HttpTagFlags, httpTagFlags } from './http-samples';
import { IoChannel } from './io-channel';
import { LocalIo } from './local-io';
import {
  type EncodedBody,
  encodeBody,
  encodeBodyShared,
  encodeStringInSlices,
  moveToShared,
} from './request-body';
import { type FlowContext, RequestFlow } from './request-flow';
import { normaliseParams, RequestParamsError } from './request-params';
import { HttpURL, InvalidUrlError, type RequestTarget, resolveTarget } from './request-url';
import { Response } from './response';
import { compress, toArrayBuffer } from './response-body';
import { SHARED_BODY_MIN_BYTES, SharedBodyBuffer } from './shared-body';
import { warmHttp } from './warm-up';

/** Strings this long (1 Mi chars, a few ms to encode) are encoded in slices by hosted VUs. */
const SLICED_ENCODE_MIN_CHARS = 1 << 20;

export class VuHttp implements FlowContext {
  readonly vuJar = new CookieJar();
  readonly tagFlags: HttpTagFlags;
  readonly tagMemo = new ExchangeTagMemo();
  private callback: ExpectedStatuses | null = DEFAULT_EXPECTED;
  /** Parsed targets by URL text: load tests hit a handful of URLs millions of times. */
  private readonly targets = new Map<string, RequestTarget>();
  private channel: IoChannel | undefined;
  /** The last large string body a hosted VU encoded (see encode). */
  private lastLargeBody: EncodedBody | undefined;
  /** asyncRequest's pool on this thread (hosted VUs); undefined until the first one. */
  private local: LocalIo | undefined;
  /** Large bodies of sync calls (one request at a time) go through this buffer; batch and async ones are transferred. */
  private readonly sharedBody = new SharedBodyBuffer();

  constructor(readonly host: ModuleHost) {
    const options = host.httpOptions;
    this.tagFlags = httpTagFlags(options.systemTags);
    // A hosted VU serves its own sockets: undici loads now, during VU init, not with the first request, where its
    // load (docs/runner-measurements.md §4.2) held the thread every VU shares and dropped the test's first few hundred
    // arrival-rate starts; and the thread warms its HTTP code before its VUs are ready (./warm-up.ts).
    if (host.hosted) warmHttp();
    host.onIterationStart(() => {
      if (!options.noCookiesReset) this.vuJar.reset();
    });
    host.onIterationEnd(() => {
      // Only an interrupted iteration ends with async requests in flight: nobody will read their replies.
      this.channel?.cancelAll();
      this.local?.cancelAll();
      if (options.noVUConnectionReuse) {
        this.channel?.closeIdleConnections();
        this.local?.closeIdleConnections();
      }
    });
  }

  /** http.request() as the script's sync calls make it (a promise on hosted VUs whose calls became awaits). */
  readonly followUp = (method: string, url: unknown, body: unknown, params: unknown): unknown =>
    this.host.awaitsBlocking
      ? this.asyncRequest(method, url, body, params)
      : this.request(method, url, body, params);

  defaultCallback(): ExpectedStatuses | null {
    return this.callback;
  }

  setResponseCallback(callback: unknown): void {
    this.callback = toResponseCallback(callback, 'setResponseCallback');
  }

  /** get/post/put/.../request: blocks this VU until the response (all redirect hops) is there. */
  request(method: string, url: unknown, body: unknown, params: unknown): Response {
    if (this.host.inInitContext())
      throw new Error('Making http requests in the init context is not supported');
    const flow = this.prepare(method, url, body, params, this.sharedBody);
    if (flow instanceof Response) return flow;
    if (this.host.hosted) throw this.host.blockingError(`http.${method.toLowerCase()}()`);
    const channel = this.io();
    for (;;) {
      const id = channel.sendBlocking(flow.next());
      const [reply] = channel.waitAny([id]);
      const response = flow.settle(reply);
      if (response) return response;
    }
  }

  asyncRequest(method: string, url: unknown, body: unknown, params: unknown): Promise<Response> {
    if (this.host.inInitContext()) {
      return Promise.reject(new Error('Making http requests in the init context is not supported'));
    }
    // A hosted VU's first send of a large string is encoded a slice per turn (then reused by encode()): the thread's
    // other VUs keep their timing meanwhile.
    if (
      this.host.hosted &&
      typeof body === 'string' &&
      body.length >= SLICED_ENCODE_MIN_CHARS &&
      this.lastLargeBody?.text !== body
    ) {
      return this.host.track(
        encodeStringInSlices(body).then((bytes) => {
          this.lastLargeBody = { bytes, text: body };
          return this.asyncRequest(method, url, body, params);
        }),
      );
    }
    let flow: RequestFlow | Response;
    try {
      flow = this.prepare(method, url, body, params);
    } catch (err) {
      return Promise.reject(err);
    }
    if (flow instanceof Response) return Promise.resolve(flow);
    const channel = this.host.hosted ? this.localIo() : this.io();
    const ready = flow;
    const run = async (): Promise<Response> => {
      for (;;) {
        const reply = await channel.sendAsync(ready.next()).reply;
        const response = ready.settle(reply);
        if (response) return response;
      }
    };
    return this.host.track(run());
  }

  /** http.batch: all requests in parallel within the `batch` and `batchPerHost` limits; same shape out as in. */
  batch(requests: unknown): Response[] | Record<string, Response> {
    const { pending, results, shape } = this.prepareBatch(requests);
    if (pending.length > 0) {
      if (this.host.hosted) throw this.host.blockingError('http.batch()');
      runBatch(this.io(), pending, results, this.host.httpOptions);
    }
    return shape(results);
  }

  /** http.batch of a hosted VU whose blocking calls are awaits: the same requests on this thread's own pool. */
  batchAwaited(requests: unknown): Promise<Response[] | Record<string, Response>> {
    try {
      const { pending, results, shape } = this.prepareBatch(requests);
      if (pending.length === 0) return Promise.resolve(shape(results));
      const local = this.localIo();
      return this.host.track(
        runBatchAsync(local, pending, results, this.host.httpOptions).then(() => shape(results)),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private prepareBatch(requests: unknown): {
    pending: PendingEntry[];
    results: Response[];
    shape: (results: Response[]) => Response[] | Record<string, Response>;
  } {
    if (this.host.inInitContext()) throw new Error('Using batch in the init context is not supported');
    if (!requests || typeof requests !== 'object') {
      throw new TypeError('http.batch: expected an array or an object of requests');
    }
    const keys = Array.isArray(requests) ? requests.map((_, i) => String(i)) : Object.keys(requests);
    const entries = keys.map((key) => batchItem((requests as Record<string, unknown>)[key], key));
    const results: Response[] = new Array(entries.length);
    const flows: Array<RequestFlow | undefined> = entries.map((item, i) => {
      const prepared = this.prepare(item.method, item.url, item.body, item.params);
      if (prepared instanceof Response) {
        results[i] = prepared;
        return undefined;
      }
      return prepared;
    });
    const pending = flows.flatMap((flow, i) => (flow ? [{ index: i, flow }] : []));
    const shape = (done: Response[]) => {
      if (Array.isArray(requests)) return done;
      const byKey: Record<string, Response> = {};
      keys.forEach((key, i) => {
        byKey[key] = done[i];
      });
      return byKey;
    };
    return { pending, results, shape };
  }

  /**
   * Checks and encodes a request; a problem found before sending becomes a status-0 Response (or a throw). `shared`
   * (sync calls only) receives a large body instead of a fresh ArrayBuffer.
   */
  prepare(
    method: string,
    url: unknown,
    body: unknown,
    params: unknown,
    shared?: SharedBodyBuffer,
  ): RequestFlow | Response {
    const options = this.host.httpOptions;
    const throwing = (params as { throw?: unknown } | null | undefined)?.throw ?? options.throw;
    try {
      const normalised = normaliseParams(params, options);
      const target = this.target(url);
      const warn = (message: string) => this.host.log('warn', message);
      const compressing = normalised.compression.length > 0;
      const encoded: EncodedBody =
        (shared && !compressing ? encodeBodyShared(body, shared) : undefined) ?? this.encode(body, warn);
      if (compressing && encoded.bytes) {
        encoded.bytes = toArrayBuffer(compress(new Uint8Array(encoded.bytes), normalised.compression));
        if (!normalised.headers.some(([n]) => n.toLowerCase() === 'content-encoding')) {
          normalised.headers.push(['Content-Encoding', normalised.compression.join(', ')]);
        }
      }
      if (shared) moveToShared(encoded, shared);
      let jar: CookieJar | undefined;
      if (normalised.jar !== undefined && normalised.jar !== null) {
        if (!(normalised.jar instanceof CookieJar)) {
          throw new RequestParamsError(
            'params.jar must be a CookieJar (http.cookieJar() or new http.CookieJar())',
          );
        }
        jar = normalised.jar;
      }
      return new RequestFlow(this, method, target, encoded, normalised, jar);
    } catch (err) {
      if (!(err instanceof RequestParamsError) && !(err instanceof InvalidUrlError)) throw err;
      const code = err instanceof InvalidUrlError ? K6_ERROR.invalidUrl : K6_ERROR.generic;
      this.host.log('warn', 'Request Failed', { error: err.message });
      if (throwing === true) throw err;
      return failedResponse(method, String(url), err.message, code);
    }
  }

  /**
   * encodeBody, except for a hosted VU's large bodies: the same large string sent again reuses its bytes, and a large
   * ArrayBuffer is sent from the script's own buffer instead of a copy. Encoding or copying a 30 MB body (into fresh
   * memory, slow to fault in on a VM) holds the thread its VUs share for tens of milliseconds per request, and load
   * tests often post one payload over and over. Safe because a hosted VU's body bytes are written to the socket from
   * this thread and never transferred (runner/http/local-io.ts); a script that changes its ArrayBuffer while
   * the request is in flight changes what is sent.
   */
  private encode(body: unknown, warn: (message: string) => void): EncodedBody {
    if (!this.host.hosted) return encodeBody(body, warn);
    if (isArrayBuffer(body) && body.byteLength >= SHARED_BODY_MIN_BYTES) return { bytes: body, text: '' };
    if (typeof body !== 'string' || body.length < SHARED_BODY_MIN_BYTES) return encodeBody(body, warn);
    if (this.lastLargeBody?.text !== body) this.lastLargeBody = encodeBody(body, warn);
    return { bytes: this.lastLargeBody.bytes, text: body };
  }

  private target(url: unknown): RequestTarget {
    const key = url instanceof HttpURL ? `${url.url}\u0000${url.name}` : String(url);
    let target = this.targets.get(key);
    if (!target) {
      target = resolveTarget(url);
      if (this.targets.size >= 1024) this.targets.clear();
      this.targets.set(key, target);
    }
    return target;
  }

  private localIo(): LocalIo {
    if (!this.local) {
      const options = this.host.httpOptions;
      this.local = new LocalIo({
        signal: this.host.signal,
        insecureSkipTLSVerify: options.insecureSkipTLSVerify,
        tls: options.tls,
        noConnectionReuse: options.noConnectionReuse,
      });
    }
    return this.local;
  }

  private io(): IoChannel {
    if (this.channel) return this.channel;
    const port = this.host.httpPort;
    if (!port) throw new Error('k6/http requests cannot be made here: this realm has no HTTP I/O channel');
    const options = this.host.httpOptions;
    this.channel = new IoChannel(
      port,
      this.host.signal,
      {
        insecureSkipTLSVerify: options.insecureSkipTLSVerify,
        tls: options.tls,
        noConnectionReuse: options.noConnectionReuse,
      },
      () => this.host.throwIfInterrupted(),
      this.sharedBody,
    );
    return this.channel;
  }
}

function failedResponse(method: string, url: string, error: string, errorCode: number): Response {
  return new Response({
    status: 0,
    statusText: '',
    url,
    proto: '',
    headers: {},
    cookies: {},
    body: null,
    timings: {
      blocked: 0,
      looking_up: 0,
      connecting: 0,
      tls_handshaking: 0,
      sending: 0,
      waiting: 0,
      receiving: 0,
      duration: 0,
    },
    remoteIp: '',
    remotePort: 0,
    tlsVersion: '',
    tlsCipherSuite: '',
    error,
    errorCode,
    request: () => ({ method, url, headers: {}, body: '', cookies: {} }),
  });
}
