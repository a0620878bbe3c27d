// What every --out output implements, and how its FILE argument becomes a byte stream (.gz -> gzip, - -> stdout).
// A write that fails mid-run (disk full, the file system gone) is reported once and the output stops there: the run,
// the other outputs and the summary go on, as k6 does (it logs output errors and keeps the exit code).
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { SampleOutput } from '../metrics/aggregator';
import { goFileError } from './writable';

export interface Output extends SampleOutput {
  /** For the header's `output:` line, e.g. `json (out.json)`. */
  description: string;
  /** Writes buffered lines and closes the file; the file is complete when this resolves. */
  close(): Promise<void>;
}

/** Told once when an output can no longer write (the message names the output, the file and the cause). */
export type OutputErrorSink = (message: string) => void;

/** A line sink that buffers and writes every `flushMs`, gzip-compressing when the name ends in .gz. */
export class LineWriter {
  private buffer: string[] = [];
  private readonly stream: Writable;
  private readonly finished: Promise<void>;
  private readonly timer: NodeJS.Timeout;
  private failed = false;

  /** `label` names the output in the error message (`json`, `csv`). */
  constructor(
    private readonly file: string,
    flushMs: number,
    private readonly label: string,
    private readonly onError: OutputErrorSink,
  ) {
    if (file === '' || file === '-') {
      this.stream = process.stdout;
      this.finished = Promise.resolve();
    } else {
      const fileStream = createWriteStream(file);
      // Resolves on 'close', which also follows an error (autoDestroy): close() never rejects.
      this.finished = new Promise((resolve) => fileStream.on('close', () => resolve()));
      fileStream.on('error', (err) => this.fail(err));
      if (file.endsWith('.gz')) {
        const gzip = createGzip();
        gzip.on('error', (err) => this.fail(err));
        gzip.pipe(fileStream);
        this.stream = gzip;
      } else this.stream = fileStream;
    }
    this.timer = setInterval(() => this.flush(), flushMs);
    this.timer.unref();
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.buffer = [];
    clearInterval(this.timer);
    this.onError(
      `output ${this.label}: ${goFileError(err, this.file, 'write')}; the rest of its samples are dropped (the run goes on)`,
    );
  }

  push(line: string): void {
    if (this.failed) return;
    this.buffer.push(line);
    if (this.buffer.length >= 10_000) this.flush();
  }

  flush(): void {
    if (this.buffer.length === 0 || this.failed) return;
    this.stream.write(`${this.buffer.join('\n')}\n`);
    this.buffer = [];
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.flush();
    if (this.stream === process.stdout) return;
    this.stream.end();
    await this.finished;
  }
}

/** Formats epoch ms as RFC 3339 with nanoseconds (trailing zeros trimmed) in the host's local offset. */
export class TimeFormatter {
  private second = Number.NaN;
  private prefix = '';
  private offset = '';

  format(ms: number): string {
    const sec = Math.floor(ms / 1000);
    if (sec !== this.second) {
      this.second = sec;
      const d = new Date(sec * 1000);
      const off = -d.getTimezoneOffset();
      const pad = (n: number, w = 2) => String(n).padStart(w, '0');
      this.prefix = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
      this.offset =
        off === 0
          ? 'Z'
          : `${off > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
    }
    const nanos = Math.min(999_999_999, Math.round((ms - sec * 1000) * 1e6));
    const frac = nanos === 0 ? '' : `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`;
    return `${this.prefix}${frac}${this.offset}`;
  }
}
