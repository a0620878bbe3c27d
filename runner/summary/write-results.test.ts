import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/temp-dir';
import { writeSummaryResults } from './write-results';

const dir = tempDir('bench-write-results-');
const systemTmp = process.env.TMPDIR;
afterEach(() => {
  if (systemTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTmp;
});

describe('writeSummaryResults', () => {
  it('keeps files it cannot write where asked, two of the same name apart, and names where', () => {
    process.env.TMPDIR = dir;
    const streams = { stdout: new PassThrough(), stderr: new PassThrough() };
    const failure = writeSummaryResults(
      [
        [join(dir, 'ok.json'), '{"ok":1}'],
        ['/nonexistent-a/r.json', 'A'],
        ['/nonexistent-b/r.json', 'B'],
        ['stdout', 'table'],
      ],
      streams,
    );
    expect(readFileSync(join(dir, 'ok.json'), 'utf8')).toBe('{"ok":1}');
    const keep = readdirSync(dir).find((f) => f.startsWith('bench-unsaved-')) as string;
    expect(readdirSync(join(dir, keep)).sort()).toEqual(['1-r.json', '2-r.json']);
    expect(readFileSync(join(dir, keep, '1-r.json'), 'utf8')).toBe('A');
    expect(readFileSync(join(dir, keep, '2-r.json'), 'utf8')).toBe('B');
    expect(failure?.split('\n')).toEqual([
      'Could not save some summary information:',
      expect.stringMatching(
        new RegExp(
          `^\\t- could not open '/nonexistent-a/r.json': open /nonexistent-a/r.json: no such file or directory.*; kept in ${join(dir, keep, '1-r.json')}$`,
        ),
      ),
      expect.stringMatching(new RegExp(`; kept in ${join(dir, keep, '2-r.json')}$`)),
    ]);
    expect(streams.stdout.read()?.toString()).toBe('table');
  });

  it('writes no keep directory when every file is written', () => {
    process.env.TMPDIR = dir;
    const before = readdirSync(dir).filter((f) => f.startsWith('bench-unsaved-')).length;
    expect(
      writeSummaryResults([[join(dir, 'fine.txt'), 'x']], {
        stdout: new PassThrough(),
        stderr: new PassThrough(),
      }),
    ).toBeUndefined();
    expect(readdirSync(dir).filter((f) => f.startsWith('bench-unsaved-'))).toHaveLength(before);
  });
});
