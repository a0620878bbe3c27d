// --http-debug dumps (docs/k6-behaviour.md §4.7): the request and the response of each exchange as text, headers always,
// bodies with --http-debug=full. Pure; the flow logs them at info level with source=http-debug.
import { bytesToText, joinChunks } from './response-body';
import type { ReplyMessage } from './wire';

export type HttpDebugMode = '' | 'headers' | 'full';

/** Headers whose values are credentials: dumped as `<scheme> ****` so an API key never reaches a log. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization']);

/** A credential header value with its secret part masked (the auth scheme stays visible for debugging). */
function maskSecretHeader(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value;
  const space = value.indexOf(' ');
  return space > 0 ? `${value.slice(0, space)} ****` : '****';
}

/** `headers` is the flat [name, value, ...] list as sent; `body` the request body as text ("" for bytes). */
export function requestDump(
  method: string,
  url: URL,
  headers: readonly string[],
  body: string,
  mode: HttpDebugMode,
): string {
  let dump = `Request:\n${method} ${url.pathname}${url.search} HTTP/1.1\nHost: ${url.host}\n`;
  for (let i = 0; i + 1 < headers.length; i += 2)
    dump += `${headers[i]}: ${maskSecretHeader(headers[i], headers[i + 1])}\n`;
  if (mode === 'full' && body) dump += `\n${body}\n`;
  return dump;
}

export function responseDump(reply: ReplyMessage, mode: HttpDebugMode): string {
  if (reply.error) return `Response:\nerror: ${reply.error.message}\n`;
  let dump = `Response:\n${reply.proto} ${reply.status} ${reply.statusText}\n`;
  for (let i = 0; i + 1 < reply.headers.length; i += 2)
    dump += `${reply.headers[i]}: ${reply.headers[i + 1]}\n`;
  if (mode === 'full' && reply.body.length > 0) dump += `\n${bytesToText(joinChunks(reply.body))}\n`;
  return dump;
}
