// --out csv=FILE (or fileName=…,saveInterval=1s,timeFormat=unix): one row per sample in k6's column order.

import { parseDuration } from '../../core/durations';
import type { Series } from '../metrics/aggregator';
import type { Metric } from '../metrics/registry';
import { LineWriter, type Output, type OutputErrorSink, TimeFormatter } from './output';

type CsvTimeFormat = 'unix' | 'unix_milli' | 'unix_micro' | 'unix_nano' | 'rfc3339' | 'rfc3339_nano';
const TIME_FORMATS: CsvTimeFormat[] = [
  'unix',
  'unix_milli',
  'unix_micro',
  'unix_nano',
  'rfc3339',
  'rfc3339_nano',
];

/** System tags that get their own column (sorted), when enabled. */
const INDEXABLE = [
  'check',
  'error',
  'error_code',
  'expected_response',
  'group',
  'method',
  'name',
  'proto',
  'scenario',
  'service',
  'status',
  'subproto',
  'tls_version',
  'url',
];

export interface CsvConfig {
  fileName: string;
  saveInterval: number;
  timeFormat: CsvTimeFormat;
}

/** Parses the --out csv argument and K6_CSV_* variables; throws an Error naming the bad part. */
export function parseCsvArgument(arg: string, env: Record<string, string | undefined>): CsvConfig {
  const config: CsvConfig = {
    fileName: env.K6_CSV_FILENAME ?? 'file.csv',
    saveInterval: env.K6_CSV_SAVE_INTERVAL ? parseDuration(env.K6_CSV_SAVE_INTERVAL) : 1000,
    timeFormat: (env.K6_CSV_TIME_FORMAT as CsvTimeFormat) ?? 'unix',
  };
  if (arg.includes('=')) {
    for (const part of arg.split(',')) {
      const [k, v] = [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)];
      if (k === 'fileName' || k === 'file') config.fileName = v;
      else if (k === 'saveInterval') config.saveInterval = parseDuration(v);
      else if (k === 'timeFormat') config.timeFormat = v as CsvTimeFormat;
      else throw new Error(`unknown csv output option "${k}" (use fileName, saveInterval, timeFormat)`);
    }
  } else if (arg !== '') config.fileName = arg;
  if (!TIME_FORMATS.includes(config.timeFormat))
    throw new Error(`invalid csv timeFormat "${config.timeFormat}" (use one of ${TIME_FORMATS.join(', ')})`);
  return config;
}

function cell(v: string): string {
  return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export class CsvOutput implements Output {
  readonly description: string;
  private readonly writer: LineWriter;
  private readonly columns: string[];
  private readonly columnSet: Set<string>;
  private readonly time = new TimeFormatter();

  constructor(
    private readonly config: CsvConfig,
    systemTags: readonly string[],
    onError: OutputErrorSink,
  ) {
    this.description = `csv (${config.fileName})`;
    this.writer = new LineWriter(config.fileName, config.saveInterval, 'csv', onError);
    this.columns = INDEXABLE.filter((t) => systemTags.includes(t));
    this.columnSet = new Set(this.columns);
    this.writer.push(
      ['metric_name', 'timestamp', 'metric_value', ...this.columns, 'extra_tags', 'metadata'].join(','),
    );
  }

  private timestamp(ms: number): string {
    switch (this.config.timeFormat) {
      case 'unix':
        return String(Math.floor(ms / 1000));
      case 'unix_milli':
        return String(Math.floor(ms));
      case 'unix_micro':
        return String(Math.floor(ms * 1000));
      case 'unix_nano':
        return (BigInt(Math.floor(ms * 1000)) * 1000n).toString();
      case 'rfc3339':
        return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
      case 'rfc3339_nano':
        return this.time.format(ms);
    }
  }

  write(
    metric: Metric,
    time: number,
    value: number,
    series: Series,
    metadata?: Record<string, string>,
  ): void {
    const tags = series.tags;
    const extra = Object.keys(tags)
      .filter((k) => !this.columnSet.has(k))
      .sort()
      .map((k) => `${k}=${tags[k]}`)
      .join('&');
    const meta = metadata
      ? Object.keys(metadata)
          .sort()
          .map((k) => `${k}=${metadata[k]}`)
          .join('&')
      : '';
    const row = [
      metric.name,
      this.timestamp(time),
      value.toFixed(6),
      ...this.columns.map((c) => tags[c] ?? ''),
      extra,
      meta,
    ];
    this.writer.push(row.map(cell).join(','));
  }

  close(): Promise<void> {
    return this.writer.close();
  }
}
