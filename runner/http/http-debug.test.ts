import { describe, expect, it } from 'vitest';
import { requestDump, responseDump } from './http-debug';
import { replyMessage } from './testdata/reply-message';
import type { ReplyMessage } from './wire';

const reply = (over: Partial<ReplyMessage> = {}): ReplyMessage =>
  replyMessage({
    headers: ['Content-Type', 'text/plain'],
    body: [new TextEncoder().encode('hi').buffer as ArrayBuffer],
    bodyBytes: 2,
    ...over,
  });

describe('--http-debug dumps', () => {
  it('request: line, host, headers; the body only in full mode', () => {
    const url = new URL('http://h:8080/p?q=1');
    expect(requestDump('POST', url, ['X-A', '1'], 'body', 'headers')).toBe(
      'Request:\nPOST /p?q=1 HTTP/1.1\nHost: h:8080\nX-A: 1\n',
    );
    expect(requestDump('POST', url, [], 'body', 'full')).toBe(
      'Request:\nPOST /p?q=1 HTTP/1.1\nHost: h:8080\n\nbody\n',
    );
  });

  it('masks credential headers so an API key never reaches the log', () => {
    const url = new URL('http://h/v2/namespaces/x/query');
    const dump = requestDump(
      'POST',
      url,
      ['Authorization', 'Bearer tpuf_secret123', 'proxy-authorization', 'x'],
      '',
      'full',
    );
    expect(dump).toBe(
      'Request:\nPOST /v2/namespaces/x/query HTTP/1.1\nHost: h\nAuthorization: Bearer ****\nproxy-authorization: ****\n',
    );
    expect(dump).not.toContain('tpuf_secret123');
  });

  it('response: status line and headers; the body only in full mode; errors in one line', () => {
    expect(responseDump(reply(), 'headers')).toBe('Response:\nHTTP/1.1 200 OK\nContent-Type: text/plain\n');
    expect(responseDump(reply(), 'full')).toBe(
      'Response:\nHTTP/1.1 200 OK\nContent-Type: text/plain\n\nhi\n',
    );
    expect(responseDump(reply({ error: { code: 1212, message: 'dial: connection refused' } }), 'full')).toBe(
      'Response:\nerror: dial: connection refused\n',
    );
  });
});
