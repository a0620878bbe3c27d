import { SourceMap } from 'node:module';
import { describe, expect, it } from 'vitest';
import { requireCjs } from '../require-cjs';
import { markThrows, THROWN_GLOBAL } from './thrown-values';

const esbuild = requireCjs('esbuild') as typeof import('esbuild');

const SOURCE = [
  'export default function () {',
  "  if (Math.random() > 2) throw 'a string'; const after = probe();",
  '  throw { code: 42 };',
  '}',
  "function probe() { throw new Error('left alone'); }",
  '',
].join('\n');

function inlineMap(code: string): SourceMap {
  const b64 = /sourceMappingURL=data:application\/json;base64,(\S+)/.exec(code)?.[1] ?? '';
  return new SourceMap(JSON.parse(Buffer.from(b64, 'base64').toString('utf8')));
}

/** (line, column) of `needle` in `code`, 0-based. */
function position(code: string, needle: string): [number, number] {
  const at = code.indexOf(needle);
  const before = code.slice(0, at).split('\n');
  return [before.length - 1, before[before.length - 1].length];
}

describe('markThrows', () => {
  it('wraps throws of values that may not be Errors and keeps the source map exact', () => {
    const built = esbuild.transformSync(SOURCE, {
      format: 'esm',
      sourcemap: 'inline',
      sourcefile: 'x.js',
    }).code;
    const marked = markThrows(built, 'module');
    expect(marked).toContain(`throw ${THROWN_GLOBAL}("a string")`);
    expect(marked).toMatch(new RegExp(`throw ${THROWN_GLOBAL}\\(\\{ code: 42 \\}\\)`));
    expect(marked).toContain('throw new Error("left alone")');
    // A token after an insertion on the same generated line maps where it mapped before the edit.
    for (const token of ['probe()', '{ code: 42 }', '"a string"']) {
      const original = (e: ReturnType<SourceMap['findEntry']>) => {
        const { originalSource, originalLine, originalColumn } = e as Record<string, unknown>;
        return { originalSource, originalLine, originalColumn };
      };
      const before = original(inlineMap(built).findEntry(...position(built, token)));
      expect(before.originalLine).toBeTypeOf('number');
      expect(original(inlineMap(marked).findEntry(...position(marked, token))), token).toEqual(before);
    }
  });

  it('leaves a bundle with no throw unchanged', () => {
    expect(markThrows('export const a = 1;\n', 'module')).toBe('export const a = 1;\n');
  });
});
