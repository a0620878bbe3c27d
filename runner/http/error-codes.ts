// Network and protocol failures (Node errno codes, undici error codes, OpenSSL codes) -> k6's error_code numbers and
// `error` texts (docs/k6-behaviour.md §4.6). One table, grouped by layer, so a newcomer finds every mapping in one place.
import { goChunkedError, goHeadError } from './malformed-response';
import type { WireError } from './wire';

/** k6 codes the runner produces itself, outside the table (named so call sites read as k6's docs do). */
export const K6_ERROR = {
  generic: 1000,
  invalidUrl: 1020,
  requestTimeout: 1050,
  decompression: 1701,
} as const;

/** k6 gives HTTP error statuses their own code: 1000 + status (1404, 1503...). */
export function statusErrorCode(status: number): number {
  return status >= 400 ? 1000 + status : 0;
}

/** What a failure looks like by the time it reaches the mapper (a Node/undici Error, or a plain look-alike). */
export interface FailureLike {
  code?: string;
  name?: string;
  message?: string;
  syscall?: string;
  cause?: unknown;
}

interface Mapping {
  code: number;
  /** The `error` text; `op` is the socket operation ("read", "write", "dial") when k6 puts it in front. */
  message: (failure: FailureLike) => string;
}

const fixed =
  (text: string): Mapping['message'] =>
  () =>
    text;

function op(failure: FailureLike, fallback: string): string {
  if (failure.syscall === 'write' || failure.syscall === 'writev') return 'write';
  if (failure.syscall === 'read') return 'read';
  if (failure.syscall === 'connect') return 'dial';
  return fallback;
}

/** Keyed by Node errno / undici / OpenSSL code. */
const TABLE: Record<string, Mapping> = {
  // --- DNS (11xx) ---
  ENOTFOUND: { code: 1101, message: fixed('lookup: no such host') },
  EAI_NONAME: { code: 1101, message: fixed('lookup: no such host') },
  EAI_AGAIN: { code: 1100, message: (f) => `lookup: ${f.message ?? 'temporary failure'}` },
  EAI_FAIL: { code: 1100, message: (f) => `lookup: ${f.message ?? 'failure'}` },
  // --- TCP dial (121x) ---
  ECONNREFUSED: { code: 1212, message: fixed('dial: connection refused') },
  ETIMEDOUT: { code: 1211, message: fixed('dial: i/o timeout') },
  UND_ERR_CONNECT_TIMEOUT: { code: 1211, message: fixed('dial: i/o timeout') },
  EHOSTUNREACH: { code: 1210, message: fixed('dial: no route to host') },
  ENETUNREACH: { code: 1210, message: fixed('dial: network is unreachable') },
  EADDRNOTAVAIL: { code: 1210, message: fixed('dial: cannot assign requested address') },
  // --- TCP read/write (120x, 1220) ---
  ECONNRESET: { code: 1220, message: (f) => `${op(f, 'read')}: connection reset by peer` },
  EPIPE: { code: 1201, message: (f) => `${op(f, 'write')}: broken pipe` },
  // undici's "other side closed" / "socket closed" (and a body shorter than its Content-Length): the peer hung up
  // mid-exchange. Go says "EOF" when not a byte of the response had arrived, else "unexpected EOF" (mapFailure).
  UND_ERR_SOCKET: { code: 1000, message: fixed('unexpected EOF') },
  UND_ERR_CLOSED: { code: 1000, message: fixed('unexpected EOF') },
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: { code: 1000, message: fixed('unexpected EOF') },
  // --- TLS (13xx) ---
  ERR_SSL_WRONG_VERSION_NUMBER: {
    code: 1301,
    message: fixed('tls: first record does not look like a TLS handshake'),
  },
  // k6's own text for Go's x509.UnknownAuthorityError (not Go's "certificate signed by unknown authority").
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: { code: 1310, message: fixed('x509: unknown authority') },
  UNABLE_TO_GET_ISSUER_CERT: { code: 1310, message: fixed('x509: unknown authority') },
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: { code: 1310, message: fixed('x509: unknown authority') },
  SELF_SIGNED_CERT_IN_CHAIN: { code: 1310, message: fixed('x509: unknown authority') },
  DEPTH_ZERO_SELF_SIGNED_CERT: { code: 1310, message: fixed('x509: unknown authority') },
  ERR_TLS_CERT_ALTNAME_INVALID: { code: 1311, message: fixed("x509: certificate doesn't match hostname") },
  CERT_HAS_EXPIRED: { code: 1300, message: fixed('x509: certificate has expired or is not yet valid') },
  // --- HTTP parsing (generic in k6) ---
  UND_ERR_HEADERS_OVERFLOW: { code: 1000, message: fixed('net/http: response headers too large') },
  HPE_INVALID_CONSTANT: { code: 1000, message: fixed('malformed HTTP response') },
  UND_ERR_INVALID_ARG: { code: 1000, message: (f) => f.message ?? 'invalid argument' },
  UND_ERR_NOT_SUPPORTED: { code: 1000, message: (f) => f.message ?? 'not supported' },
};

/** Error names (not codes) the runner raises itself. */
export class RequestTimeoutError extends Error {
  override name = 'RequestTimeoutError';
  readonly code = 'BENCH_REQUEST_TIMEOUT';
}

/** What the exchange had seen of the response when it failed. */
export interface ResponseSoFar {
  /** The first bytes read after the request went out (kept until the head parsed); undefined when none arrived. */
  head?: Uint8Array;
  /** The status line and headers parsed (the failure is in the body). */
  headersDone: boolean;
}

const PARSER_ERROR_PREFIX = 'Response does not match the HTTP/1.1 protocol';

/**
 * A response llhttp refused, in Go's words: the head replayed through Go's checks (`malformed HTTP response
 * "HELLO"`), a chunked body's error, or, where Go would not object to what was seen, "malformed HTTP response" with
 * llhttp's reason. Always k6's generic 1000, as k6 gives these no code of their own.
 */
function parserFailure(failure: FailureLike, seen: ResponseSoFar | undefined): WireError {
  const reason = /\((.*)\)$/.exec(failure.message ?? '')?.[1] ?? '';
  if (seen?.headersDone) return { code: K6_ERROR.generic, message: goChunkedError(reason) };
  const goText = seen?.head ? goHeadError(seen.head) : undefined;
  return { code: K6_ERROR.generic, message: goText ?? `malformed HTTP response (${reason || 'unparsable'})` };
}

/**
 * Maps a failure to k6's `{error_code, error}`; unknown failures are 1000 with their own message. `seen` (what the
 * exchange had received) lets protocol failures carry Go's exact text.
 */
export function mapFailure(failure: FailureLike, seen?: ResponseSoFar): WireError {
  if (failure.code === 'BENCH_REQUEST_TIMEOUT')
    return { code: K6_ERROR.requestTimeout, message: 'request timeout' };
  // undici's HTTPParserError carries no code (llhttp's number does not map back to a name in undici 7).
  if (failure.name === 'HTTPParserError' || failure.message?.startsWith(PARSER_ERROR_PREFIX))
    return parserFailure(failure, seen);
  const code = failure.code ?? '';
  if ((code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') && seen && !seen.head && !seen.headersDone)
    return { code: K6_ERROR.generic, message: 'EOF' };
  const mapping = TABLE[code];
  if (mapping) return { code: mapping.code, message: mapping.message(failure) };
  if (code.startsWith('HPE_')) return { code: 1000, message: 'malformed HTTP response' };
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_'))
    return { code: 1300, message: `tls: ${failure.message ?? code}` };
  // undici wraps the socket error of a failed connect in `cause`.
  if (failure.cause && typeof failure.cause === 'object') {
    const inner = mapFailure(failure.cause as FailureLike);
    if (inner.code !== 1000) return inner;
  }
  return { code: K6_ERROR.generic, message: failure.message || code || 'unknown error' };
}
