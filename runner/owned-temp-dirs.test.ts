import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../tests/temp-dir';
import { createOwnedDir, INSTANCES_DIR_PREFIX, removeAbandonedDirs } from './owned-temp-dirs';

describe('owned temporary directories', () => {
  const parent = tempDir('owned-dirs-test-');

  it("removes those whose owner is gone, and keeps live owners', unowned and unrelated ones", () => {
    const mine = createOwnedDir(parent, INSTANCES_DIR_PREFIX).dir;
    expect(readFileSync(join(mine, 'owner.pid'), 'utf8')).toBe(String(process.pid));
    const owned = (name: string, pid: string) => {
      const dir = join(parent, `${INSTANCES_DIR_PREFIX}${name}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'owner.pid'), pid);
      writeFileSync(join(dir, 'instance-1.json'), '{}\n');
      return dir;
    };
    const dead = owned('dead', '4000001');
    const live = owned('live', '4000002');
    const garbled = owned('garbled', 'not a pid');
    const unowned = join(parent, `${INSTANCES_DIR_PREFIX}unowned`);
    mkdirSync(unowned);
    const other = join(parent, 'something-else');
    mkdirSync(other);
    const removed = removeAbandonedDirs(parent, INSTANCES_DIR_PREFIX, (pid) => pid === 4000002);
    expect(removed).toEqual([dead]);
    expect([mine, dead, live, garbled, unowned, other].map(existsSync)).toEqual([
      true,
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  it('finds nothing to remove in a missing directory', () => {
    expect(removeAbandonedDirs(join(tmpdir(), 'no-such-dir-for-owned-dirs'), INSTANCES_DIR_PREFIX)).toEqual(
      [],
    );
  });
});
