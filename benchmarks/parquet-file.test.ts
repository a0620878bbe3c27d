// The bytes' layout only: that the benchmark tool's reader (xitongsys/parquet-go) reads these files was checked by
// running `make try-tpuf-benchmark` on its text definitions, which read every column kind written here.
import { describe, expect, it } from 'vitest';
import { parquetFile } from './parquet-file';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('parquetFile', () => {
  const file = Buffer.from(
    parquetFile([
      { name: 'n', type: 'int32', values: [7, -1] },
      { name: 's', type: 'string', values: ['walrus', 'tusk'] },
      { name: 'v', type: 'float-list', values: [Float32Array.of(0.5, 1.5), Float32Array.of(2)] },
    ]),
  );

  it('starts and ends with the magic, the footer length before the last', () => {
    expect(text(file.subarray(0, 4))).toBe('PAR1');
    expect(text(file.subarray(-4))).toBe('PAR1');
    const footerLength = file.readUInt32LE(file.length - 8);
    const footer = text(file.subarray(file.length - 8 - footerLength, file.length - 8));
    // The schema's names and the writer's name are in the footer, as Thrift binaries.
    for (const name of ['schema', 'n', 's', 'v', 'bench benchmarks/parquet-file.ts'])
      expect(footer).toContain(name);
  });

  it('writes PLAIN values: int32 and float little-endian, strings after a 4-byte length', () => {
    const ints = Buffer.alloc(8);
    ints.writeInt32LE(7, 0);
    ints.writeInt32LE(-1, 4);
    expect(file.indexOf(ints)).toBeGreaterThan(4);
    expect(file.indexOf(Buffer.from('\x06\x00\x00\x00walrus\x04\x00\x00\x00tusk', 'latin1'))).toBeGreaterThan(
      4,
    );
    const floats = Buffer.alloc(12);
    for (const [i, v] of [0.5, 1.5, 2].entries()) floats.writeFloatLE(v, 4 * i);
    expect(file.indexOf(floats)).toBeGreaterThan(4);
  });

  it("writes a list column's levels as RLE runs: a row starts at 0, continues at 1; every value defined", () => {
    // Repetition levels, 6 bytes: [run of 1 × 0] [run of 1 × 1] [run of 1 × 0]; definition levels: [run of 3 × 1].
    const levels = Buffer.from([6, 0, 0, 0, 2, 0, 2, 1, 2, 0, 2, 0, 0, 0, 6, 1]);
    expect(file.indexOf(levels)).toBeGreaterThan(4);
  });

  it('refuses columns of different lengths and empty lists', () => {
    expect(() =>
      parquetFile([
        { name: 'a', type: 'int32', values: [1] },
        { name: 'b', type: 'int32', values: [] },
      ]),
    ).toThrow('b: 0 rows, the first column has 1');
    expect(() => parquetFile([{ name: 'v', type: 'float-list', values: [new Float32Array(0)] }])).toThrow(
      'v: an empty list is not supported',
    );
  });
});
