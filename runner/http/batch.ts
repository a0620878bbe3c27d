// http.batch: k6's three entry forms normalised, and the scheduler that keeps at most `batch` requests (and
// `batchPerHost` per host) in flight while the VU blocks, starting the next one as each reply (or hop) settles.
import type { IoChannel } from './io-channel';
import type { RequestFlow } from './request-flow';
import { HttpURL } from './request-url';
import type { Response } from './response';

/** One entry of http.batch, normalised. */
export interface BatchItem {
  method: string;
  url: unknown;
  body: unknown;
  params: unknown;
}

/** A batch entry in any of k6's forms -> BatchItem (docs/k6-behaviour.md §4.1). */
export function batchItem(entry: unknown, key: string): BatchItem {
  if (typeof entry === 'string' || entry instanceof HttpURL) {
    return { method: 'GET', url: entry, body: null, params: null };
  }
  if (Array.isArray(entry)) {
    if (entry.length < 2)
      throw new TypeError(`batch request ${key}: an array entry needs at least [method, url]`);
    return { method: String(entry[0]), url: entry[1], body: entry[2] ?? null, params: entry[3] ?? null };
  }
  if (entry && typeof entry === 'object') {
    const o = entry as Record<string, unknown>;
    if (o.url === undefined) throw new TypeError(`batch request ${key}: an object entry needs a url`);
    const method = o.method === undefined || o.method === null ? 'GET' : String(o.method).toUpperCase();
    const body = method === 'GET' || method === 'HEAD' ? null : (o.body ?? null);
    return { method, url: o.url, body, params: o.params ?? null };
  }
  throw new TypeError(
    `batch request ${key}: expected a URL string, an array or an object, got ${typeof entry}`,
  );
}

/** One prepared batch entry and its position in the result. */
export interface PendingEntry {
  index: number;
  flow: RequestFlow;
}

/** Runs the entries to completion (all redirect hops), writing each final Response at its index. */
export function runBatch(
  channel: IoChannel,
  entries: readonly PendingEntry[],
  results: Response[],
  limits: { batch: number; batchPerHost: number },
): void {
  const limit = limits.batch > 0 ? limits.batch : Number.POSITIVE_INFINITY;
  const perHostLimit = limits.batchPerHost > 0 ? limits.batchPerHost : Number.POSITIVE_INFINITY;
  const queue = entries.slice();
  const inFlight = new Map<number, { entry: PendingEntry; host: string }>();
  const perHost = new Map<string, number>();
  try {
    while (queue.length > 0 || inFlight.size > 0) {
      for (let q = 0; q < queue.length && inFlight.size < limit; ) {
        const entry = queue[q];
        const host = entry.flow.targetHost();
        if ((perHost.get(host) ?? 0) >= perHostLimit) {
          q++;
          continue;
        }
        queue.splice(q, 1);
        perHost.set(host, (perHost.get(host) ?? 0) + 1);
        inFlight.set(channel.sendBlocking(entry.flow.next()), { entry, host });
      }
      for (const reply of channel.waitAny([...inFlight.keys()])) {
        const slot = inFlight.get(reply.id) as { entry: PendingEntry; host: string };
        inFlight.delete(reply.id);
        perHost.set(slot.host, (perHost.get(slot.host) ?? 1) - 1);
        const response = slot.entry.flow.settle(reply);
        if (response) results[slot.entry.index] = response;
        else queue.unshift(slot.entry); // a redirect hop: send it next
      }
    }
  } catch (err) {
    for (const id of inFlight.keys()) channel.cancel(id);
    throw err;
  }
}
