import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../tests/temp-dir';
import { isDirty } from './dirty-tree';

const INPUTS = ['scenarios/hello.ts', 'lib/new folder/helper.ts'];

describe('isDirty over git status --porcelain -z', () => {
  it('is clean with no entries, and with untracked files no bundle contains', () => {
    expect(isDirty('', INPUTS)).toBe(false);
    expect(isDirty('?? runs/x.json\0?? notes.txt\0', INPUTS)).toBe(false);
  });

  it('is dirty with an untracked input, even one in a new folder with a space in its name', () => {
    expect(isDirty('?? notes.txt\0?? lib/new folder/helper.ts\0', INPUTS)).toBe(true);
  });

  it('is dirty with any tracked change, input or not: modified, staged, deleted, renamed', () => {
    for (const entry of [
      ' M README.md',
      'M  scenarios/hello.ts',
      ' D lib/a.ts',
      'A  lib/b.ts',
      'R  lib/c.ts\0lib/d.ts',
    ])
      expect(isDirty(`?? notes.txt\0${entry}\0`, INPUTS), entry).toBe(true);
  });
});

describe('isDirty over a real repository', () => {
  const dir = tempDir('bench-dirty-');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
  const status = () => git('status', '--porcelain', '-z', '--untracked-files=all');
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  it('follows the tree from clean to an untracked stray file, an untracked input, and a tracked change', () => {
    git('init', '-q');
    write('scenarios/hello.ts', 'export default 1;\n');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    expect(isDirty(status(), INPUTS)).toBe(false);
    write('notes.txt', 'scratch\n');
    expect(isDirty(status(), INPUTS)).toBe(false);
    write('lib/new folder/helper.ts', 'export const x = 1;\n');
    expect(isDirty(status(), INPUTS)).toBe(true);
    expect(isDirty(status(), ['scenarios/hello.ts'])).toBe(false);
    write('scenarios/hello.ts', 'export default 2;\n');
    expect(isDirty(status(), ['scenarios/hello.ts'])).toBe(true);
  });
});
