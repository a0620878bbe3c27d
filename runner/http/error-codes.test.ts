import { describe, expect, it } from 'vitest';
import { mapFailure, RequestTimeoutError, statusErrorCode } from './error-codes';

describe('network failures -> k6 error codes', () => {
  it.each([
    [{ code: 'ENOTFOUND' }, 1101, 'lookup: no such host'],
    [{ code: 'EAI_AGAIN', message: 'temporary failure' }, 1100, 'lookup: temporary failure'],
    [{ code: 'ECONNREFUSED', syscall: 'connect' }, 1212, 'dial: connection refused'],
    [{ code: 'UND_ERR_CONNECT_TIMEOUT' }, 1211, 'dial: i/o timeout'],
    [{ code: 'EHOSTUNREACH' }, 1210, 'dial: no route to host'],
    [{ code: 'ECONNRESET', syscall: 'read' }, 1220, 'read: connection reset by peer'],
    [{ code: 'ECONNRESET', syscall: 'write' }, 1220, 'write: connection reset by peer'],
    [{ code: 'EPIPE', syscall: 'write' }, 1201, 'write: broken pipe'],
    [{ code: 'UND_ERR_SOCKET', message: 'other side closed' }, 1000, 'unexpected EOF'],
    [{ code: 'ERR_SSL_WRONG_VERSION_NUMBER' }, 1301, 'tls: first record does not look like a TLS handshake'],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 1310, 'x509: unknown authority'],
    [{ code: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' }, 1000, 'unexpected EOF'],
    [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 1311, "x509: certificate doesn't match hostname"],
    [{ code: 'ERR_SSL_SOMETHING_ELSE', message: 'bad thing' }, 1300, 'tls: bad thing'],
    [{ code: 'HPE_INVALID_HEADER_TOKEN' }, 1000, 'malformed HTTP response'],
  ])('%j -> %i', (failure, code, message) => {
    expect(mapFailure(failure)).toEqual({ code, message });
  });

  it('a peer that hangs up: "EOF" before any byte of the response, "unexpected EOF" after some (as Go)', () => {
    const closed = { code: 'UND_ERR_SOCKET', message: 'other side closed' };
    expect(mapFailure(closed, { headersDone: false })).toEqual({ code: 1000, message: 'EOF' });
    expect(mapFailure(closed, { head: Buffer.from('HTTP/1.1 2'), headersDone: false }).message).toBe(
      'unexpected EOF',
    );
    expect(mapFailure(closed, { headersDone: true }).message).toBe('unexpected EOF');
  });

  it("undici's parser errors become Go's texts, never undici's", () => {
    const parser = (reason: string) => ({
      name: 'HTTPParserError',
      message: `Response does not match the HTTP/1.1 protocol (${reason})`,
    });
    const head = (s: string) => ({ head: Buffer.from(s), headersDone: false });
    expect(mapFailure(parser('Expected HTTP/, RTSP/ or ICE/'), head('HELLO\r\n\r\n'))).toEqual({
      code: 1000,
      message: 'malformed HTTP response "HELLO"',
    });
    expect(mapFailure(parser('Invalid character in chunk size'), { headersDone: true })).toEqual({
      code: 1000,
      message: 'invalid byte in chunk length',
    });
    // Bytes Go would accept (llhttp is stricter): the generic text with llhttp's reason, still code 1000.
    expect(mapFailure(parser('Duplicate Content-Length'), head('HTTP/1.1 200 OK\r\n\r\n'))).toEqual({
      code: 1000,
      message: 'malformed HTTP response (Duplicate Content-Length)',
    });
  });

  it('the runner timeout is 1050 "request timeout"', () => {
    expect(mapFailure(new RequestTimeoutError('x'))).toEqual({ code: 1050, message: 'request timeout' });
  });

  it('looks inside an undici wrapper for the socket error', () => {
    expect(mapFailure({ code: 'UND_ERR_X', message: 'wrapped', cause: { code: 'ECONNREFUSED' } })).toEqual({
      code: 1212,
      message: 'dial: connection refused',
    });
  });

  it('anything unknown is 1000 with its own message', () => {
    expect(mapFailure({ message: 'strange' })).toEqual({ code: 1000, message: 'strange' });
    expect(mapFailure({})).toEqual({ code: 1000, message: 'unknown error' });
  });

  it('HTTP error statuses are 1000 + status; others 0', () => {
    expect([200, 399, 400, 404, 503].map(statusErrorCode)).toEqual([0, 0, 1400, 1404, 1503]);
  });
});
