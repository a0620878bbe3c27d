// Reading k6's --out json lines back into samples: how `bench run --instances` gathers its instances' samples and
// `bench merge` the streams of instances that ran elsewhere. Metric lines define their metric (type, contains) and
// carry its thresholds; Point lines become samples with their own timestamps, so the merged stream is the union of
// every instance's samples, and trends keep every value (exact percentiles).
import { StringDecoder } from 'node:string_decoder';
import type { MetricRegistry } from '../metrics/registry';
import type { MetricType, ValueType } from '../metrics/sinks';
import type { SampleInput } from '../modules/module-host';
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
    if (!Number.isFinite(at) || typeof value !== 'number')
      throw new Error(`${this.source}:${this.lineNo}: a Point line without a valid time and value`);
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
