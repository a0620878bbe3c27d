// http.batch: k6's three entry forms normalised, and the scheduler that keeps at most `batch` requests (and
// `batchPerHost` per host) in flight while the VU blocks, starting the next one as each reply (or hop) settles.
import type { IoChannel } from './io-channel';
import type { LocalIo } from './local-io';
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

/**
 * Which entries may go out now: the queue is taken in order, skipping entries whose host is at `batchPerHost`, until
 * `batch` are in flight. Shared by the blocking and the awaited batch.
 */
class BatchSlots {
  private readonly limit: number;
  private readonly perHostLimit: number;
  private readonly perHost = new Map<string, number>();
  /** The host each entry in flight was sent to (a redirect hop may go elsewhere). */
  private readonly sentTo = new Map<PendingEntry, string>();
  readonly queue: PendingEntry[];
  inFlight = 0;

  constructor(entries: readonly PendingEntry[], limits: { batch: number; batchPerHost: number }) {
    this.limit = limits.batch > 0 ? limits.batch : Number.POSITIVE_INFINITY;
    this.perHostLimit = limits.batchPerHost > 0 ? limits.batchPerHost : Number.POSITIVE_INFINITY;
    this.queue = entries.slice();
  }

  /** Takes every entry that may start now (each counted in flight until done()). */
  take(): PendingEntry[] {
    const out: PendingEntry[] = [];
    for (let q = 0; q < this.queue.length && this.inFlight < this.limit; ) {
      const host = this.queue[q].flow.targetHost();
      if ((this.perHost.get(host) ?? 0) >= this.perHostLimit) {
        q++;
        continue;
      }
      const [entry] = this.queue.splice(q, 1);
      out.push(entry);
      this.sentTo.set(entry, host);
      this.perHost.set(host, (this.perHost.get(host) ?? 0) + 1);
      this.inFlight++;
    }
    return out;
  }

  /** One hop of `entry` came back: settled to a Response stored at its index, or queued first for its next hop. */
  done(entry: PendingEntry, response: Response | undefined, results: Response[]): void {
    const host = this.sentTo.get(entry) as string;
    this.sentTo.delete(entry);
    this.perHost.set(host, (this.perHost.get(host) ?? 1) - 1);
    this.inFlight--;
    if (response) results[entry.index] = response;
    else this.queue.unshift(entry);
  }

  get finished(): boolean {
    return this.queue.length === 0 && this.inFlight === 0;
  }
}

/** Runs the entries to completion (all redirect hops), writing each final Response at its index. */
export function runBatch(
  channel: IoChannel,
  entries: readonly PendingEntry[],
  results: Response[],
  limits: { batch: number; batchPerHost: number },
): void {
  const slots = new BatchSlots(entries, limits);
  const inFlight = new Map<number, PendingEntry>();
  try {
    while (!slots.finished) {
      for (const entry of slots.take()) inFlight.set(channel.sendBlocking(entry.flow.next()), entry);
      for (const reply of channel.waitAny([...inFlight.keys()])) {
        const entry = inFlight.get(reply.id) as PendingEntry;
        inFlight.delete(reply.id);
        slots.done(entry, entry.flow.settle(reply), results);
      }
    }
  } catch (err) {
    for (const id of inFlight.keys()) channel.cancel(id);
    throw err;
  }
}

/** runBatch on a channel that answers with promises (a hosted VU's own pool, runner/http/local-io.ts). */
export function runBatchAsync(
  channel: LocalIo,
  entries: readonly PendingEntry[],
  results: Response[],
  limits: { batch: number; batchPerHost: number },
): Promise<void> {
  const slots = new BatchSlots(entries, limits);
  return new Promise<void>((resolve, reject) => {
    const start = () => {
      if (slots.finished) resolve();
      for (const entry of slots.take())
        channel.sendAsync(entry.flow.next()).reply.then((reply) => {
          try {
            slots.done(entry, entry.flow.settle(reply), results);
            start();
          } catch (error) {
            reject(error);
          }
        }, reject);
    };
    start();
  });
}
