// k6-style log lines on stderr: text (`time="…" level=info msg="…" source=console`, or `INFO[0003] msg` on a
// TTY), json or raw; debug lines only with --verbose; --log-output none|stdout|stderr|file=PATH.
import { appendFileSync } from 'node:fs';

export type Level = 'debug' | 'info' | 'warn' | 'error';

export interface LoggerOptions {
  verbose: boolean;
  format: 'text' | 'json' | 'raw';
  /** 'stderr' | 'stdout' | 'none' | 'file=PATH' */
  output: string;
  tty: boolean;
  noColor: boolean;
  /** --console-output FILE: console.* records go there instead. */
  consoleOutput?: string;
  /** Rewrites every line before it is written (k6/secrets: secret values redacted). */
  redact?: (line: string) => string;
}

const LEVEL_TAGS: Record<Level, string> = { debug: 'DEBU', info: 'INFO', warn: 'WARN', error: 'ERRO' };
const LEVEL_NAMES: Record<Level, string> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error' };
const COLORS: Record<Level, number> = { debug: 37, info: 36, warn: 33, error: 31 };

function quote(v: string): string {
  return /^[A-Za-z0-9_.:/@-]*$/.test(v) && v !== '' ? v : JSON.stringify(v);
}

export class Logger {
  private readonly start = Date.now();
  /** Log files that failed once: their lines go to stderr from then on (a log never stops the run). */
  private readonly failedFiles = new Set<string>();

  constructor(private readonly options: LoggerOptions) {}

  /** Wraps every line written to a terminal stream (the progress display puts them above its block). */
  around: ((write: () => void) => void) | undefined;

  private write(text: string, fields?: Record<string, string>): void {
    const line = this.options.redact ? this.options.redact(text) : text;
    const out =
      fields?.source === 'console' && this.options.consoleOutput
        ? `file=${this.options.consoleOutput}`
        : this.options.output;
    if (out === 'none') return;
    if (out.startsWith('file=') && !this.failedFiles.has(out)) {
      this.append(out.slice(5), line);
      return;
    }
    const stream = out === 'stdout' ? process.stdout : process.stderr;
    if (this.around) this.around(() => stream.write(`${line}\n`));
    else stream.write(`${line}\n`);
  }

  private append(file: string, line: string): void {
    try {
      appendFileSync(file, `${line}\n`);
    } catch (error) {
      this.failedFiles.add(`file=${file}`);
      process.stderr.write(
        `bench: cannot write the log file ${file} (${(error as Error).message}); logging to stderr instead\n${line}\n`,
      );
    }
  }

  log(level: Level, message: string, fields?: Record<string, string>): void {
    if (level === 'debug' && !this.options.verbose) return;
    const f = fields ?? {};
    const { format } = this.options;
    if (format === 'raw') {
      this.write(message, fields);
      return;
    }
    if (format === 'json') {
      this.write(
        JSON.stringify({ level: LEVEL_NAMES[level], msg: message, ...f, time: new Date().toISOString() }),
        fields,
      );
      return;
    }
    const extra = Object.entries(f)
      .map(([k, v]) => `${k}=${quote(v)}`)
      .join(' ');
    if (this.options.tty && this.options.output === 'stderr') {
      const secs = String(Math.floor((Date.now() - this.start) / 1000)).padStart(4, '0');
      const tag = this.options.noColor
        ? LEVEL_TAGS[level]
        : `\x1b[${COLORS[level]}m${LEVEL_TAGS[level]}\x1b[0m`;
      this.write(`${tag}[${secs}] ${message}${extra ? `  ${extra}` : ''}`, fields);
    } else {
      const time = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      this.write(
        `time="${time}" level=${LEVEL_NAMES[level]} msg=${JSON.stringify(message)}${extra ? ` ${extra}` : ''}`,
        fields,
      );
    }
  }

  debug(message: string, fields?: Record<string, string>): void {
    this.log('debug', message, fields);
  }
  info(message: string, fields?: Record<string, string>): void {
    this.log('info', message, fields);
  }
  warn(message: string, fields?: Record<string, string>): void {
    this.log('warn', message, fields);
  }
  error(message: string, fields?: Record<string, string>): void {
    this.log('error', message, fields);
  }
}
