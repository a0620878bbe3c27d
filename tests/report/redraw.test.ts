// `bench report` redraws every committed result byte for byte: its SVGs, its Markdown's charts section and its HTML
// report come from the result JSON and the code alone, so a change that would alter a published chart shows here.
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyResult, writeResultReport } from '../../report';
import { root } from '../experiment-script';
import { tempDir } from '../temp-dir';

const RESULTS = join(root, 'results');
const committed = readdirSync(RESULTS)
  .filter((f) => f.endsWith('.json'))
  .map((f) => join(RESULTS, f));

describe('bench report on the committed results', () => {
  const dir = tempDir('bench-redraw-');

  it.each(committed.map((f) => [basename(f), f]))('redraws %s byte for byte', async (_, json) => {
    const known = await classifyResult(JSON.parse(readFileSync(json, 'utf8')));
    if (known.experiment === null) return;
    const copy = join(dir, basename(json));
    copyFileSync(json, copy);
    copyFileSync(json.replace(/\.json$/, '.md'), copy.replace(/\.json$/, '.md'));
    const outcome = writeResultReport(copy, known);
    expect(outcome.written.length).toBeGreaterThan(2);
    for (const file of outcome.written)
      expect(readFileSync(file, 'utf8'), basename(file)).toBe(
        readFileSync(join(RESULTS, basename(file)), 'utf8'),
      );
  });
});
