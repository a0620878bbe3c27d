import { MessageChannel, type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { SIGNAL_INTERRUPT } from '../modules/module-host';
import { InterruptedWaitError, IoChannel, type OutgoingRequest } from './io-channel';
import { SharedBodyBuffer, sharedBodyView } from './shared-body';
import { replyMessage } from './testdata/reply-message';
import type { VuToIoMessage } from './wire';

const request: OutgoingRequest = {
  method: 'GET',
  origin: 'http://h',
  path: '/',
  headers: [],
  body: null,
  sharedBody: -1,
  timeoutMs: 1000,
  discardBody: false,
};

/** Everything the channel posted to the I/O side so far. */
function sent(io: MessagePort): VuToIoMessage[] {
  const out: VuToIoMessage[] = [];
  for (let m = receiveMessageOnPort(io); m; m = receiveMessageOnPort(io))
    out.push(m.message as VuToIoMessage);
  return out;
}

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

function setup() {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const signal = new Int32Array(new SharedArrayBuffer(8));
  const shared = new SharedBodyBuffer();
  const channel = new IoChannel(
    port1,
    signal,
    { insecureSkipTLSVerify: false, noConnectionReuse: true },
    () => {
      if (Atomics.load(signal, SIGNAL_INTERRUPT)) throw new Error('SENTINEL');
    },
    shared,
  );
  return { channel, io: port2, signal, shared };
}

describe('IoChannel', () => {
  it('attaches once, then numbers requests and marks blocking ones to wake the VU', () => {
    const { channel, io } = setup();
    expect(channel.sendBlocking(request)).toBe(1);
    expect(channel.sendAsync(request).id).toBe(2);
    const messages = sent(io);
    expect(messages.map((m) => m.t)).toEqual(['attach', 'req', 'req']);
    expect(messages[0]).toMatchObject({ noConnectionReuse: true, insecureSkipTLSVerify: false });
    expect(messages.slice(1).map((m) => (m.t === 'req' ? [m.id, m.wake] : []))).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('announces the shared body buffer before the first request using it, and only once', () => {
    const { channel, io, shared } = setup();
    const length = shared.write('x'.repeat(10));
    channel.sendBlocking({ ...request, sharedBody: length });
    channel.sendBlocking({ ...request, sharedBody: length });
    const messages = sent(io);
    expect(messages.map((m) => m.t)).toEqual(['attach', 'sharedBody', 'req', 'req']);
    const buffer = (messages[1] as { buffer: SharedArrayBuffer }).buffer;
    expect(messages.slice(2).map((m) => (m.t === 'req' ? m.sharedBody : undefined))).toEqual([10, 10]);
    // Still marked busy by the last request: a new body needs a new buffer, announced before its request.
    shared.write('y'.repeat(10));
    channel.sendBlocking({ ...request, sharedBody: 10 });
    const next = sent(io);
    expect(next.map((m) => m.t)).toEqual(['sharedBody', 'req']);
    expect((next[0] as { buffer: SharedArrayBuffer }).buffer).not.toBe(buffer);
    // Released by the I/O side: the same buffer is reused without a new announcement.
    sharedBodyView((next[0] as { buffer: SharedArrayBuffer }).buffer, 10).release();
    shared.write('z'.repeat(10));
    channel.sendBlocking({ ...request, sharedBody: 10 });
    expect(sent(io).map((m) => m.t)).toEqual(['req']);
  });

  it('waitAny returns the replies already there and routes async replies to their promises', async () => {
    const { channel, io } = setup();
    const a = channel.sendBlocking(request);
    const b = channel.sendBlocking(request);
    const async = channel.sendAsync(request);
    io.postMessage(replyMessage({ id: async.id, status: 202 }));
    io.postMessage(replyMessage({ id: b, status: 201 }));
    io.postMessage(replyMessage({ id: 999 })); // a reply to a request nobody waits for: dropped
    expect(channel.waitAny([a, b]).map((r) => [r.id, r.status])).toEqual([[b, 201]]);
    expect((await async.reply).status).toBe(202);
    io.postMessage(replyMessage({ id: a, status: 200 }));
    expect(channel.waitAny([a]).map((r) => r.id)).toEqual([a]);
  });

  it('an interrupted wait cancels the open requests and throws the host sentinel', () => {
    const { channel, io, signal } = setup();
    const id = channel.sendBlocking(request);
    sent(io);
    Atomics.store(signal, SIGNAL_INTERRUPT, 1);
    expect(() => channel.waitAny([id])).toThrow('SENTINEL');
    expect(sent(io)).toEqual([{ t: 'cancel', id }]);
  });

  it('throws InterruptedWaitError when the host does not throw', () => {
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    const signal = new Int32Array(new SharedArrayBuffer(8));
    const channel = new IoChannel(
      port1,
      signal,
      { insecureSkipTLSVerify: false, noConnectionReuse: false },
      () => {},
    );
    const id = channel.sendBlocking(request);
    Atomics.store(signal, SIGNAL_INTERRUPT, 1);
    expect(() => channel.waitAny([id])).toThrow(InterruptedWaitError);
  });

  it('cancelAll cancels every async request in flight', () => {
    const { channel, io } = setup();
    const one = channel.sendAsync(request).id;
    const two = channel.sendAsync(request).id;
    sent(io);
    channel.cancelAll();
    expect(sent(io)).toEqual([
      { t: 'cancel', id: one },
      { t: 'cancel', id: two },
    ]);
  });
});
