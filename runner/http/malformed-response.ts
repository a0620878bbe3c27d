// What Go's net/http (and so k6) says about a response that is not HTTP/1.1, given the bytes that arrived: undici's
// parser (llhttp) only says "Response does not match the HTTP/1.1 protocol (...)". Go's checks are replayed on the
// response head in the order Go makes them (net/http ReadResponse, net/textproto ReadMIMEHeader), and its texts are
// kept word for word, `%q` quoting included, so scripts and log searches written for k6 match.

/** Go's strconv.Quote of raw bytes: printable UTF-8 as is, invalid bytes as \xHH, the rest escaped. */
export function goQuote(bytes: Uint8Array): string {
  let out = '"';
  for (let i = 0; i < bytes.length; ) {
    const [cp, size] = decodeRune(bytes, i);
    if (cp < 0) {
      out += `\\x${hex(bytes[i], 2)}`;
      i++;
      continue;
    }
    i += size;
    out += quoteRune(cp);
  }
  return `${out}"`;
}

const ESCAPES: Record<number, string> = {
  7: '\\a',
  8: '\\b',
  12: '\\f',
  10: '\\n',
  13: '\\r',
  9: '\\t',
  11: '\\v',
  34: '\\"',
  92: '\\\\',
};

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function quoteRune(cp: number): string {
  const escaped = ESCAPES[cp];
  if (escaped) return escaped;
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`;
  const ch = String.fromCodePoint(cp);
  if (PRINTABLE.test(ch)) return ch;
  return cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** One UTF-8 code point at `i` as Go's utf8.DecodeRune reads it: [code point, bytes], or [-1, 1] when invalid. */
function decodeRune(b: Uint8Array, i: number): [number, number] {
  const c0 = b[i];
  if (c0 < 0x80) return [c0, 1];
  const cont = (j: number, lo = 0x80, hi = 0xbf) => i + j < b.length && b[i + j] >= lo && b[i + j] <= hi;
  if (c0 >= 0xc2 && c0 <= 0xdf && cont(1)) return [((c0 & 0x1f) << 6) | (b[i + 1] & 0x3f), 2];
  if (c0 >= 0xe0 && c0 <= 0xef) {
    const lo = c0 === 0xe0 ? 0xa0 : 0x80;
    const hi = c0 === 0xed ? 0x9f : 0xbf;
    if (cont(1, lo, hi) && cont(2))
      return [((c0 & 0x0f) << 12) | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f), 3];
  }
  if (c0 >= 0xf0 && c0 <= 0xf4) {
    const lo = c0 === 0xf0 ? 0x90 : 0x80;
    const hi = c0 === 0xf4 ? 0x8f : 0xbf;
    if (cont(1, lo, hi) && cont(2) && cont(3))
      return [
        ((c0 & 0x07) << 18) | ((b[i + 1] & 0x3f) << 12) | ((b[i + 2] & 0x3f) << 6) | (b[i + 3] & 0x3f),
        4,
      ];
  }
  return [-1, 1];
}

/** The head's lines as bufio.ReadLine returns them ("\r\n" or "\n" removed); a last line without one is kept. */
function headLines(head: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < head.length; i++) {
    if (head[i] !== 0x0a) continue;
    lines.push(head.subarray(start, i > start && head[i - 1] === 0x0d ? i - 1 : i));
    start = i + 1;
  }
  if (start < head.length) lines.push(head.subarray(start));
  return lines;
}

const bytesOf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const latin1 = (b: Uint8Array) => bytesOf(b).toString('latin1');
/** Go prints these lines unquoted, as raw bytes. */
const raw = (b: Uint8Array) => bytesOf(b).toString('utf8');

/** net/http's ParseHTTPVersion. */
function validVersion(v: string): boolean {
  if (v === 'HTTP/1.1' || v === 'HTTP/1.0') return true;
  return v.length === 8 && v.startsWith('HTTP/') && v[6] === '.' && /\d/.test(v[5]) && /\d/.test(v[7]);
}

/** net/http ReadResponse's checks of the status line, in its order. */
function statusLineError(line: Uint8Array): string | undefined {
  const text = latin1(line);
  const space = text.indexOf(' ');
  if (space < 0) return `malformed HTTP response ${goQuote(line)}`;
  const proto = line.subarray(0, space);
  const status = text.slice(space + 1).replace(/^ +/, '');
  const codeEnd = status.indexOf(' ');
  const code = codeEnd < 0 ? status : status.slice(0, codeEnd);
  const codeBytes = Buffer.from(code, 'latin1');
  if (code.length !== 3 || !/^[+-]?\d+$/.test(code) || Number(code) < 0)
    return `malformed HTTP status code ${goQuote(codeBytes)}`;
  if (!validVersion(latin1(proto))) return `malformed HTTP version ${goQuote(proto)}`;
  return undefined;
}

// RFC 7230 tchar, the bytes Go accepts in a header name.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]*$/;

/** Go's validHeaderValueByte over a header value (tab, printable ASCII and any byte >= 0x80). */
function validValue(v: Uint8Array): boolean {
  for (const c of v) if (!(c === 0x09 || (c >= 0x20 && c < 0x7f) || c >= 0x80)) return false;
  return true;
}

function trimSpace(b: Uint8Array): Uint8Array {
  let s = 0;
  let e = b.length;
  while (s < e && (b[s] === 0x20 || b[s] === 0x09)) s++;
  while (e > s && (b[e - 1] === 0x20 || b[e - 1] === 0x09)) e--;
  return b.subarray(s, e);
}

/** net/textproto ReadMIMEHeader's checks of the header lines, in its order (folded lines are not joined). */
function headerLinesError(lines: Uint8Array[]): string | undefined {
  if (lines.length > 0 && (lines[0][0] === 0x20 || lines[0][0] === 0x09))
    return `malformed MIME header initial line: ${raw(lines[0].subarray(0, 80))}`;
  for (const line of lines) {
    if (line.length === 0) return undefined;
    const kv = trimSpace(line);
    const colon = kv.indexOf(0x3a);
    if (colon < 0) return `malformed MIME header: missing colon: ${goQuote(kv)}`;
    if (!TOKEN.test(latin1(kv.subarray(0, colon))) || !validValue(kv.subarray(colon + 1)))
      return `malformed MIME header line: ${raw(kv)}`;
  }
  return undefined;
}

/**
 * Go's error text for a response head (status line and headers) that llhttp refused, or undefined when Go's checks
 * find nothing wrong in the bytes seen (llhttp is stricter on a few points Go lets through).
 */
export function goHeadError(head: Uint8Array): string | undefined {
  const lines = headLines(head);
  if (lines.length === 0) return undefined;
  return statusLineError(lines[0]) ?? headerLinesError(lines.slice(1));
}

/** Go's chunked-reader text for a chunked body llhttp refused (`reason` is llhttp's). */
export function goChunkedError(reason: string): string {
  if (/chunk size/i.test(reason))
    return /overflow/i.test(reason) ? 'http chunk length too large' : 'invalid byte in chunk length';
  return 'malformed chunked encoding';
}
