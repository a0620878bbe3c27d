// The I/O worker's reply for unit tests of what reads one (the VU's channel, the --http-debug dump): an empty 200
// over HTTP/1.1 with zero timings, so each test spells out only the fields it is about.
import type { ReplyMessage } from '../wire';

export function replyMessage(over: Partial<ReplyMessage> = {}): ReplyMessage {
  return {
    t: 'res',
    id: 1,
    status: 200,
    statusText: 'OK',
    proto: 'HTTP/1.1',
    headers: [],
    body: [],
    bodyBytes: 0,
    timings: { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting: 0, receiving: 0 },
    endTime: 0,
    remoteIp: '',
    remotePort: 0,
    tlsVersion: '',
    tlsCipherSuite: '',
    sentBytes: 0,
    receivedBytes: 0,
    error: null,
    requestBody: null,
    ...over,
  };
}
