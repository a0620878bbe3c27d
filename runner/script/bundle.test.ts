import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/temp-dir';
import { BUNDLE_DIR_PREFIX, OWNER_FILE } from '../owned-temp-dirs';
import { loadScript } from './bundle';

describe('the bundled script directory', () => {
  const dir = tempDir('bundle-test-');

  it('names its owner, goes with dispose(), and a run killed outright has its directory removed by the next load', async () => {
    const file = join(dir, 'script.js');
    writeFileSync(file, 'export default function () {}\n');
    // What a SIGKILLed run leaves: its bundle directory, owned by a pid that no longer exists.
    const left = join(tmpdir(), `${BUNDLE_DIR_PREFIX}test-dead-owner`);
    mkdirSync(left, { recursive: true });
    writeFileSync(join(left, OWNER_FILE), '4000001');
    const script = await loadScript(file);
    const own = dirname(fileURLToPath(script.bundleUrl));
    expect(readFileSync(join(own, OWNER_FILE), 'utf8')).toBe(String(process.pid));
    expect(existsSync(left)).toBe(false);
    script.dispose();
    expect(existsSync(own)).toBe(false);
  });
});
