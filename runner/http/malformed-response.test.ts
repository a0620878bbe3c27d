import { describe, expect, it } from 'vitest';
import { goChunkedError, goHeadError, goQuote } from './malformed-response';

const b = (s: string) => Buffer.from(s, 'latin1');

describe("Go's %q", () => {
  it.each([
    ['HELLO', '"HELLO"'],
    ['say "hi"\\', '"say \\"hi\\"\\\\"'],
    ['\x00\x01\t\r\n\x7f', '"\\x00\\x01\\t\\r\\n\\x7f"'],
    ['\x83\x00\x00\x01\x8f', '"\\x83\\x00\\x00\\x01\\x8f"'],
  ])('quotes %j as %s', (input, quoted) => {
    expect(goQuote(b(input))).toBe(quoted);
  });

  it('keeps printable UTF-8, escapes invisible code points and invalid bytes', () => {
    expect(goQuote(Buffer.from('é€😀', 'utf8'))).toBe('"é€😀"');
    expect(goQuote(Buffer.from('\u200b\u{e0001}', 'utf8'))).toBe('"\\u200b\\U000e0001"');
    expect(goQuote(Buffer.from([0xc3, 0x28, 0xed, 0xa0, 0x80]))).toBe('"\\xc3(\\xed\\xa0\\x80"');
  });
});

describe("a refused response head in Go's words (net/http ReadResponse, textproto ReadMIMEHeader)", () => {
  it.each([
    ['HELLO\r\n\r\n', 'malformed HTTP response "HELLO"'],
    ['\x15\x03\x01\x00\x02\x02\x0a', 'malformed HTTP response "\\x15\\x03\\x01\\x00\\x02\\x02"'],
    ['{"error":"x"}', 'malformed HTTP response "{\\"error\\":\\"x\\"}"'],
    ['HTTP/1.1 abc OK\r\n\r\n', 'malformed HTTP status code "abc"'],
    ['HTTP/1.1 2000 OK\r\n\r\n', 'malformed HTTP status code "2000"'],
    ['HTTP/1.1   200 OK\r\n\r\n', undefined],
    ['HTTX/1.1 200 OK\r\n\r\n', 'malformed HTTP version "HTTX/1.1"'],
    ['HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', 'malformed MIME header: missing colon: "no colon here"'],
    ['HTTP/1.1 200 OK\r\nbad key: v\r\n\r\n', 'malformed MIME header line: bad key: v'],
    ['HTTP/1.1 200 OK\r\nk: a\x01b\r\n\r\n', 'malformed MIME header line: k: a\x01b'],
    ['HTTP/1.1 200 OK\r\n x: y\r\n\r\n', 'malformed MIME header initial line:  x: y'],
    ['HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n', undefined],
  ])('%j -> %s', (head, text) => {
    expect(goHeadError(b(head))).toBe(text);
  });

  it('a chunked body: invalid chunk size, overflow, anything else', () => {
    expect(goChunkedError('Invalid character in chunk size')).toBe('invalid byte in chunk length');
    expect(goChunkedError('Chunk size overflow')).toBe('http chunk length too large');
    expect(goChunkedError('Expected LF after chunk data')).toBe('malformed chunked encoding');
  });
});
