// --out json=FILE: NDJSON in k6's line format (a Metric line before each metric's first Point), so jq recipes
// written for k6 keep working.
import type { Series } from '../metrics/aggregator';
import type { Metric } from '../metrics/registry';
import type { Threshold } from '../thresholds/threshold-set';
import { LineWriter, type Output, type OutputErrorSink, TimeFormatter } from './output';

/** `{"type":"Metric",...}` line. */
export interface JsonMetricLine {
  type: 'Metric';
  data: {
    name: string;
    type: string;
    contains: string;
    thresholds: Array<string | { threshold: string; abortOnFail: boolean; delayAbortEval: string }>;
    submetrics: Array<{ name: string; suffix: string; tags: Record<string, string> }> | null;
  };
  metric: string;
}

/** `{"metric":...,"type":"Point",...}` line; `value` is in ms for time metrics. */
export interface JsonPointLine {
  metric: string;
  type: 'Point';
  data: { time: string; value: number; tags: Record<string, string>; metadata?: Record<string, string> };
}

function sortedTagsJson(tags: Record<string, string>): string {
  const keys = Object.keys(tags).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(tags[k])}`).join(',')}}`;
}

export class JsonOutput implements Output {
  readonly description: string;
  private readonly writer: LineWriter;
  private readonly seen = new Set<Metric>();
  private readonly time = new TimeFormatter();

  constructor(
    file: string,
    private readonly thresholds: Threshold[],
    onError: OutputErrorSink,
  ) {
    this.description = file === '' || file === '-' ? 'json(stdout)' : `json (${file})`;
    this.writer = new LineWriter(file, 200, 'json', onError);
  }

  private metricLine(metric: Metric): string {
    const thresholds = this.thresholds
      .filter((t) => t.metric === metric && !t.submetric)
      .flatMap((t) =>
        t.expressions.map((e) =>
          e.abortOnFail
            ? { threshold: e.source, abortOnFail: true, delayAbortEval: e.delayAbortEvalSource ?? '' }
            : e.source,
        ),
      );
    const line: JsonMetricLine = {
      type: 'Metric',
      data: {
        name: metric.name,
        type: metric.type,
        contains: metric.contains,
        thresholds,
        submetrics:
          metric.submetrics.length === 0
            ? null
            : metric.submetrics.map((s) => ({ name: s.name, suffix: s.suffix, tags: s.tags })),
      },
      metric: metric.name,
    };
    return JSON.stringify(line);
  }

  write(
    metric: Metric,
    time: number,
    value: number,
    series: Series,
    metadata?: Record<string, string>,
  ): void {
    if (!this.seen.has(metric)) {
      this.seen.add(metric);
      this.writer.push(this.metricLine(metric));
    }
    if (series.cache === undefined) series.cache = sortedTagsJson(series.tags);
    const meta =
      metadata && Object.keys(metadata).length > 0 ? `,"metadata":${sortedTagsJson(metadata)}` : '';
    this.writer.push(
      `{"metric":${JSON.stringify(metric.name)},"type":"Point","data":{"time":"${this.time.format(time)}","value":${JSON.stringify(value)},"tags":${series.cache}${meta}}}`,
    );
  }

  close(): Promise<void> {
    return this.writer.close();
  }
}
