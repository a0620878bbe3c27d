// Reading k6's --out json lines back into samples: how `bench run --instances` gathers its instances' samples and
// `bench merge` the streams of instances that ran elsewhere. Metric lines define their metric (type, contains) and
// carry its thresholds; Point lines become samples with their own timestamps, so the merged stream is the union of
// every instance's samples, and trends keep every value (exact percentiles).
import { type FileHandle, open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { MetricRegistry } from '../metrics/registry';
import type { SampleInput } from '../metrics/sample';
import type { MetricType, ValueType } from '../metrics/sinks';
import type { JsonMetricLine, JsonPointLine } from '../outputs/json';

/** RFC 3339 time with up to nanoseconds (Date.parse keeps only milliseconds) -> epoch ms. */
export function parseJsonTime(text: string): number {
  const m = /^(.*T\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/.exec(text);
  if (!m) return Number.NaN;
  return Date.parse(`${m[1]}${m[3]}`) + (m[2] ? Number(`0${m[2]}`) * 1000 : 0);
}

export interface StreamStats {
  points: number;
  /** Epoch ms of the earliest and latest sample. */
  first: number;
  last: number;
}

/** Thresholds a stream's Metric lines declare, by metric name, in k6's options form. */
export type DeclaredThresholds = Record<string, JsonMetricLine['data']['thresholds']>;

/** One stream's lines -> samples; line-based, so it reads a pipe while its instance still runs. */
export class JsonSampleReader {
  readonly stats: StreamStats = { points: 0, first: Number.POSITIVE_INFINITY, last: 0 };
  readonly thresholds: DeclaredThresholds = {};
  /** Point lines without a finite value or a valid time. */
  skipped = 0;
  private lineNo = 0;

  /**
   * @param registry metrics the Metric lines define (a clash keeps the first definition, as the runner does)
   * @param emit receives every Point as a sample; returning false drops it
   * @param source names the stream in error messages
   */
  constructor(
    private readonly registry: MetricRegistry,
    private readonly emit: (sample: SampleInput) => void,
    private readonly source: string,
  ) {}

  line(text: string): void {
    this.lineNo++;
    if (text.trim() === '') return;
    let parsed: JsonMetricLine | JsonPointLine;
    try {
      parsed = JSON.parse(text) as JsonMetricLine | JsonPointLine;
    } catch {
      throw new Error(
        `${this.source}:${this.lineNo}: not a JSON line; give files written by --out json (k6's or bench's)`,
      );
    }
    if (parsed.type === 'Metric') {
      const { name, type, contains, thresholds } = parsed.data;
      try {
        this.registry.define(name, type as MetricType, contains as ValueType);
      } catch {
        // Defined differently already (by the script or an earlier stream): its samples go to that definition.
      }
      if (thresholds.length > 0) this.thresholds[name] = thresholds;
      return;
    }
    if (parsed.type !== 'Point') return;
    const { time, value, tags, metadata } = parsed.data;
    const at = parseJsonTime(time);
    if (!Number.isFinite(at) || typeof value !== 'number') {
      // JSON has no NaN: a sample whose value was NaN is written as null. It is skipped, as thresholds would skip it.
      this.skipped++;
      return;
    }
    this.stats.points++;
    if (at < this.stats.first) this.stats.first = at;
    if (at > this.stats.last) this.stats.last = at;
    this.emit({ metric: parsed.metric, time: at, value, tags: tags ?? {}, metadata });
  }
}

/** Splits a byte stream into lines for a reader (the last line may come without a newline). */
export async function readLines(
  stream: AsyncIterable<Buffer | string>,
  onLine: (line: string) => void,
): Promise<void> {
  let rest = '';
  // A multi-byte character may be split between chunks.
  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream) {
    const text = rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    for (const l of lines) onLine(l);
  }
  if (rest !== '') onLine(rest);
}

/** How often a followed file is read for what was appended. */
const FOLLOW_MS = 100;

/**
 * Reads a file as another process appends lines to it, until `ended` resolves and the rest is read (the file may not
 * exist yet at first). `abandoned` resolving stops the reading at the next chunk, whatever is left unread.
 */
export async function followFile(
  path: string,
  onLine: (line: string) => void,
  ended: Promise<unknown>,
  abandoned: Promise<unknown> = new Promise(() => {}),
): Promise<void> {
  let done = false;
  let gaveUp = false;
  void ended.then(() => {
    done = true;
  });
  void abandoned.then(() => {
    gaveUp = true;
  });
  const decoder = new StringDecoder('utf8');
  const chunk = Buffer.alloc(1 << 20);
  let rest = '';
  let handle: FileHandle | undefined;
  try {
    for (;;) {
      const last = done;
      handle ??= await open(path, 'r').catch(() => undefined);
      if (handle) {
        while (!gaveUp) {
          const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
          if (bytesRead === 0) break;
          const lines = (rest + decoder.write(chunk.subarray(0, bytesRead))).split('\n');
          rest = lines.pop() ?? '';
          for (const l of lines) onLine(l);
        }
      }
      // One more read after the writer ended picks up its last lines.
      if (last || gaveUp) break;
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
    }
    if (rest !== '' && !gaveUp) onLine(rest);
  } finally {
    await handle?.close();
  }
}
