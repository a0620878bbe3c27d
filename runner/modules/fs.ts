// k6/experimental/fs (open, File, SeekMode) and k6/experimental/csv (parse, Parser), as k6 docs describe them:
// files are opened in the init context, relative to the script's directory, read into memory once per thread and
// shared by its VUs; each File handle keeps its own offset.
import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VuRuntime } from '../vu/runtime';

export const SeekMode = Object.freeze({ Start: 0, Current: 1, End: 2 });

/** k6's FsError: `name` tells the kind (NotFoundError, InvalidResourceError, ForbiddenError, TypeError, EOFError). */
class FsError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

const contents = new Map<string, Uint8Array>();

export class File {
  #offset = 0;
  constructor(
    readonly path: string,
    private readonly data: Uint8Array,
  ) {}

  /** Fills `buffer` from the offset: the number of bytes read, or null at the end of the file. */
  async read(buffer: unknown): Promise<number | null> {
    if (!(buffer instanceof Uint8Array) && !ArrayBuffer.isView(buffer))
      throw new FsError('TypeError', 'read() needs a Uint8Array to read into');
    const view = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    if (this.#offset >= this.data.length) return null;
    const n = Math.min(view.length, this.data.length - this.#offset);
    view.set(this.data.subarray(this.#offset, this.#offset + n));
    this.#offset += n;
    return n;
  }

  async seek(offset: number, whence: number = SeekMode.Start): Promise<number> {
    const base =
      whence === SeekMode.Start ? 0 : whence === SeekMode.Current ? this.#offset : this.data.length;
    if (![0, 1, 2].includes(whence)) throw new FsError('TypeError', `invalid whence value ${whence}`);
    const next = base + Number(offset);
    if (next < 0) throw new FsError('TypeError', 'seeking before start of file');
    this.#offset = Math.min(next, this.data.length);
    return this.#offset;
  }

  async stat(): Promise<{ name: string; size: number }> {
    return { name: basename(this.path), size: this.data.length };
  }

  /** The whole content, for k6/experimental/csv. */
  bytes(): Uint8Array {
    return this.data;
  }
}

export function createFsModule(rt: VuRuntime): Record<string, unknown> {
  const members = {
    SeekMode,
    File,
    async open(path: unknown): Promise<File> {
      if (!rt.inInitContext())
        throw new FsError(
          'ForbiddenError',
          'open() failed; reason: opening a file is allowed only in the Init context',
        );
      if (typeof path !== 'string' || path === '')
        throw new FsError('TypeError', 'open() failed; reason: path cannot be empty');
      const full = path.startsWith('file:') ? fileURLToPath(path) : resolve(rt.data.scriptDir, path);
      let data = contents.get(full);
      if (!data) {
        const stat = statSync(full, { throwIfNoEntry: false });
        if (!stat)
          throw new FsError('NotFoundError', `open() failed; reason: no such file or directory: ${path}`);
        if (stat.isDirectory())
          throw new FsError(
            'InvalidResourceError',
            `open() failed; reason: opening a directory is not supported: ${path}`,
          );
        data = new Uint8Array(readFileSync(full));
        contents.set(full, data);
      }
      return new File(full, data);
    },
  };
  return { ...members, default: members };
}

interface CsvOptions {
  delimiter: string;
  skipFirstLine: boolean;
  fromLine: number | undefined;
  toLine: number | undefined;
  asObjects: boolean;
}

function csvOptions(raw: unknown): CsvOptions {
  const o = (raw ?? {}) as Record<string, unknown>;
  const delimiter = o.delimiter === undefined ? ',' : String(o.delimiter);
  if (delimiter.length !== 1) throw new Error('the delimiter must be a single character');
  return {
    delimiter,
    skipFirstLine: o.skipFirstLine === true,
    fromLine: typeof o.fromLine === 'number' ? o.fromLine : undefined,
    toLine: typeof o.toLine === 'number' ? o.toLine : undefined,
    asObjects: o.asObjects === true,
  };
}

/** RFC 4180 records: quoted fields with "" escapes and line breaks, CRLF or LF line ends. */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      if (c === '\r' && text[i + 1] === '\n') i++;
    } else field += c;
    i++;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** The records the options select, as arrays or (asObjects) as objects keyed by the header line. */
function selectRecords(file: unknown, raw: unknown): unknown[] {
  if (!(file instanceof File))
    throw new Error('the first argument must be a File from k6/experimental/fs open()');
  const options = csvOptions(raw);
  let records = parseCsv(new TextDecoder().decode(file.bytes()), options.delimiter);
  let header: string[] | undefined;
  if (options.asObjects) {
    header = records[0] ?? [];
    records = records.slice(1);
  } else if (options.skipFirstLine) {
    records = records.slice(1);
  }
  const from = options.fromLine ?? 0;
  const to = options.toLine === undefined ? records.length : options.toLine + 1;
  records = records.slice(from, to);
  if (!header) return records;
  const keys = header;
  return records.map((r) => Object.fromEntries(keys.map((k, j) => [k, r[j] ?? ''])));
}

export function createCsvModule(rt: VuRuntime): Record<string, unknown> {
  class Parser {
    #rows: unknown[];
    #next = 0;
    constructor(file: unknown, options?: unknown) {
      if (!rt.inInitContext()) throw new Error('csv.Parser must be created in the init context');
      this.#rows = selectRecords(file, options);
    }
    async next(): Promise<{ done: boolean; value: unknown }> {
      if (this.#next >= this.#rows.length) return { done: true, value: undefined };
      return { done: false, value: this.#rows[this.#next++] };
    }
  }
  const members = {
    Parser,
    async parse(file: unknown, options?: unknown): Promise<readonly unknown[]> {
      if (!rt.inInitContext()) throw new Error('csv.parse() can only be called in the init context');
      return Object.freeze(selectRecords(file, options));
    },
  };
  return { ...members, default: members };
}
