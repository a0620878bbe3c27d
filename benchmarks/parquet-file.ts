// The smallest Parquet writer `make try-tpuf-benchmark` needs: one row group, one uncompressed PLAIN data page per
// column, and three column kinds (required int32, required UTF-8 string, repeated float). It writes the stand-in data
// files benchmarks/msmarco-standin.ts makes for the benchmark tool's file datasource; no Parquet package is a
// dependency of this repository, and this much of the format (parquet-format's parquet.thrift, in Thrift's compact
// protocol) fits in a page.

/** One column: one value per row, or for `float-list` one non-empty array per row. */
export type ParquetColumn =
  | { name: string; type: 'int32'; values: readonly number[] }
  | { name: string; type: 'string'; values: readonly string[] }
  | { name: string; type: 'float-list'; values: readonly Float32Array[] };

// parquet.thrift's enum values.
const TYPE = { INT32: 1, FLOAT: 4, BYTE_ARRAY: 6 } as const;
const REPETITION = { REQUIRED: 0, REPEATED: 2 } as const;
const CONVERTED_UTF8 = 0;
const ENCODING = { PLAIN: 0, RLE: 3 } as const;
const CODEC_UNCOMPRESSED = 0;
const PAGE_DATA = 0;

// Thrift compact protocol's field types.
const T = { I32: 5, I64: 6, BINARY: 8, LIST: 9, STRUCT: 12 } as const;

/** Bytes appended in order; Thrift compact protocol's encodings on top. */
class Bytes {
  private chunks: Uint8Array[] = [];
  private fieldIds: number[] = [0];
  length = 0;

  raw(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }
  byte(value: number): void {
    this.raw(Uint8Array.of(value));
  }
  uint32le(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.raw(b);
  }
  varint(value: bigint): void {
    const out: number[] = [];
    let v = value;
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      out.push(byte);
    } while (v !== 0n);
    this.raw(Uint8Array.from(out));
  }
  zigzag(value: number | bigint): void {
    const v = BigInt(value);
    this.varint(v >= 0n ? v << 1n : (-v << 1n) - 1n);
  }
  field(id: number, type: number): void {
    const last = this.fieldIds[this.fieldIds.length - 1];
    const delta = id - last;
    if (delta > 0 && delta <= 15) this.byte((delta << 4) | type);
    else {
      this.byte(type);
      this.zigzag(id);
    }
    this.fieldIds[this.fieldIds.length - 1] = id;
  }
  i32(id: number, value: number): void {
    this.field(id, T.I32);
    this.zigzag(value);
  }
  i64(id: number, value: number): void {
    this.field(id, T.I64);
    this.zigzag(value);
  }
  string(id: number, value: string): void {
    this.field(id, T.BINARY);
    const bytes = Buffer.from(value, 'utf8');
    this.varint(BigInt(bytes.length));
    this.raw(bytes);
  }
  listHeader(size: number, elementType: number): void {
    if (size < 15) this.byte((size << 4) | elementType);
    else {
      this.byte(0xf0 | elementType);
      this.varint(BigInt(size));
    }
  }
  /** A struct's fields written by `body`, then its stop byte (the field before it given as `id`, or a list's element). */
  struct(id: number | undefined, body: () => void): void {
    if (id !== undefined) this.field(id, T.STRUCT);
    this.fieldIds.push(0);
    body();
    this.byte(0);
    this.fieldIds.pop();
  }
  structList(id: number, count: number, element: (index: number) => void): void {
    this.field(id, T.LIST);
    this.listHeader(count, T.STRUCT);
    for (let i = 0; i < count; i++) this.struct(undefined, () => element(i));
  }
  concat(): Uint8Array {
    return Buffer.concat(this.chunks);
  }
}

/** An RLE run of the RLE/bit-packed hybrid encoding, for levels of bit width 1. */
function rleRun(out: Bytes, count: number, value: 0 | 1): void {
  out.varint(BigInt(count) << 1n);
  out.byte(value);
}

/** A column's page body (levels, then PLAIN values) and how many values (level entries) it holds. */
function pageBody(column: ParquetColumn): { body: Uint8Array; values: number } {
  const out = new Bytes();
  if (column.type === 'int32') {
    const b = Buffer.alloc(4 * column.values.length);
    for (const [i, v] of column.values.entries()) b.writeInt32LE(v, 4 * i);
    out.raw(b);
    return { body: out.concat(), values: column.values.length };
  }
  if (column.type === 'string') {
    for (const value of column.values) {
      const bytes = Buffer.from(value, 'utf8');
      out.uint32le(bytes.length);
      out.raw(bytes);
    }
    return { body: out.concat(), values: column.values.length };
  }
  // Repeated: each row's first value starts a row (repetition level 0), the others continue it (1); every value is
  // present (definition level 1). Both level streams carry their length in 4 bytes before them.
  const reps = new Bytes();
  let total = 0;
  for (const row of column.values) {
    if (row.length === 0) throw new Error(`${column.name}: an empty list is not supported`);
    rleRun(reps, 1, 0);
    if (row.length > 1) rleRun(reps, row.length - 1, 1);
    total += row.length;
  }
  out.uint32le(reps.length);
  out.raw(reps.concat());
  const defs = new Bytes();
  rleRun(defs, total, 1);
  out.uint32le(defs.length);
  out.raw(defs.concat());
  const b = Buffer.alloc(4 * total);
  let at = 0;
  for (const row of column.values)
    for (const v of row) {
      b.writeFloatLE(v, at);
      at += 4;
    }
  out.raw(b);
  return { body: out.concat(), values: total };
}

const physicalType = (column: ParquetColumn): number =>
  column.type === 'int32' ? TYPE.INT32 : column.type === 'string' ? TYPE.BYTE_ARRAY : TYPE.FLOAT;

/** A Parquet file of the given columns, which must all have the same number of rows. */
export function parquetFile(columns: readonly ParquetColumn[]): Uint8Array {
  const rows = columns[0]?.values.length ?? 0;
  for (const column of columns)
    if (column.values.length !== rows)
      throw new Error(`${column.name}: ${column.values.length} rows, the first column has ${rows}`);
  const file = new Bytes();
  file.raw(Buffer.from('PAR1'));
  const chunks: { offset: number; size: number; values: number }[] = [];
  for (const column of columns) {
    const { body, values } = pageBody(column);
    const offset = file.length;
    const header = new Bytes();
    header.struct(undefined, () => {
      header.i32(1, PAGE_DATA);
      header.i32(2, body.length);
      header.i32(3, body.length);
      header.struct(5, () => {
        header.i32(1, values);
        header.i32(2, ENCODING.PLAIN);
        header.i32(3, ENCODING.RLE);
        header.i32(4, ENCODING.RLE);
      });
    });
    file.raw(header.concat());
    file.raw(body);
    chunks.push({ offset, size: file.length - offset, values });
  }
  const footer = new Bytes();
  footer.struct(undefined, () => {
    footer.i32(1, 1);
    footer.structList(2, columns.length + 1, (i) => {
      if (i === 0) {
        footer.i32(3, REPETITION.REQUIRED);
        footer.string(4, 'schema');
        footer.i32(5, columns.length);
        return;
      }
      const column = columns[i - 1];
      footer.i32(1, physicalType(column));
      footer.i32(3, column.type === 'float-list' ? REPETITION.REPEATED : REPETITION.REQUIRED);
      footer.string(4, column.name);
      if (column.type === 'string') footer.i32(6, CONVERTED_UTF8);
    });
    footer.i64(3, rows);
    footer.structList(4, 1, () => {
      footer.structList(1, columns.length, (i) => {
        const column = columns[i];
        const chunk = chunks[i];
        footer.i64(2, chunk.offset);
        footer.struct(3, () => {
          footer.i32(1, physicalType(column));
          footer.field(2, T.LIST);
          footer.listHeader(2, T.I32);
          footer.zigzag(ENCODING.PLAIN);
          footer.zigzag(ENCODING.RLE);
          footer.field(3, T.LIST);
          footer.listHeader(1, T.BINARY);
          const name = Buffer.from(column.name, 'utf8');
          footer.varint(BigInt(name.length));
          footer.raw(name);
          footer.i32(4, CODEC_UNCOMPRESSED);
          footer.i64(5, chunk.values);
          footer.i64(6, chunk.size);
          footer.i64(7, chunk.size);
          footer.i64(9, chunk.offset);
        });
      });
      footer.i64(
        2,
        chunks.reduce((sum, c) => sum + c.size, 0),
      );
      footer.i64(3, rows);
    });
    footer.string(6, 'bench benchmarks/parquet-file.ts');
  });
  const meta = footer.concat();
  file.raw(meta);
  file.uint32le(meta.length);
  file.raw(Buffer.from('PAR1'));
  return file.concat();
}
