// `bench report` redraws every committed result byte for byte: its SVGs, its Markdown's charts section and its HTML
// report come from the result JSON and the code alone, so a change that would alter a published chart shows here.
// The built CLI draws them, as `make publish` did (the HTML page embeds code as the bundle has it).
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../experiment-script';
import { tempDir } from '../temp-dir';

const RESULTS = join(root, 'results');
const committed = readdirSync(RESULTS).filter((f) => f.endsWith('.json'));

describe('bench report on the committed results', () => {
  it('redraws every file it drew, byte for byte', () => {
    const dir = tempDir('bench-redraw-');
    for (const json of committed) {
      copyFileSync(join(RESULTS, json), join(dir, json));
      copyFileSync(join(RESULTS, json.replace(/\.json$/, '.md')), join(dir, json.replace(/\.json$/, '.md')));
    }
    const run = spawnSync(process.execPath, [join(root, 'bin/bench.js'), 'report', '--quiet', dir], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const drawn = readdirSync(dir).filter((f) => /\.(svg|md|html)$/.test(f));
    expect(drawn.filter((f) => f.endsWith('.svg')).length).toBeGreaterThan(committed.length);
    for (const file of drawn)
      expect(readFileSync(join(dir, file), 'utf8'), file).toBe(readFileSync(join(RESULTS, file), 'utf8'));
  });
});
