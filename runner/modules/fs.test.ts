import { describe, expect, it } from 'vitest';
import { File, parseCsv, SeekMode } from './fs';

describe('k6/experimental/fs File', () => {
  it('reads in chunks to null at the end, seeks and stats', async () => {
    const file = new File('/x/bonjour.txt', new TextEncoder().encode('Bonjour, tout le monde!'));
    const buffer = new Uint8Array(10);
    const reads: Array<number | null> = [];
    for (let n = await file.read(buffer); n !== null; n = await file.read(buffer)) reads.push(n);
    expect(reads).toEqual([10, 10, 3]);
    expect(await file.stat()).toEqual({ name: 'bonjour.txt', size: 23 });
    expect(await file.seek(-6, SeekMode.End)).toBe(17);
    expect(await file.read(buffer)).toBe(6);
    expect(new TextDecoder().decode(buffer.subarray(0, 6))).toBe('monde!');
    await expect(file.seek(-1, SeekMode.Start)).rejects.toThrow('seeking before start');
  });
});

describe('k6/experimental/csv parsing', () => {
  it('follows RFC 4180: quotes, escaped quotes, line breaks in fields, CRLF', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n"multi\nline",3\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['multi\nline', '3'],
    ]);
    expect(parseCsv('a;b', ';')).toEqual([['a', 'b']]);
  });
});
