// Whatever results are committed, under whatever names: each one `bench report` can draw has its charts section in
// its Markdown, every chart SVG that section embeds, its HTML report and its screenshot (make publish writes them
// all), and every relative link or image in the READMEs, in docs/ and in the results' Markdown names a file that
// exists.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BEGIN, END } from '../../report/markdown-embed';
import { baseOf, classifyResult } from '../../report/result-report';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RESULTS = join(ROOT, 'results');

function files(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'scratch') continue;
    if (statSync(path).isDirectory()) out.push(...files(path, ext));
    else if (name.endsWith(ext)) out.push(path);
  }
  return out;
}

/** Relative targets of Markdown links and images (`[t](x)`, `![t](x)`), without #fragments; URLs excluded. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1].split('#')[0])
    .filter((t) => t !== '' && !/^[a-z][a-z+.-]*:/i.test(t));
}

const classified = await Promise.all(
  files(RESULTS, '.json').map(async (f) => {
    try {
      return (await classifyResult(JSON.parse(readFileSync(f, 'utf8')))).experiment !== null ? f : null;
    } catch {
      return null;
    }
  }),
);
const drawable = classified.filter((f): f is string => f !== null);

describe('committed results', () => {
  it('has at least the committed experiment 1 result to draw', () => {
    expect(drawable.length).toBeGreaterThan(0);
  });

  it.each(drawable.map((f) => [relative(ROOT, f), f]))(
    '%s has its charts in its Markdown, its SVGs, HTML report and screenshot',
    (_, json) => {
      const base = baseOf(json);
      const md = readFileSync(`${base}.md`, 'utf8');
      const section = md.slice(md.indexOf(BEGIN), md.indexOf(END));
      expect(
        md.indexOf(BEGIN),
        `${base}.md has no charts section: run make publish or bench report`,
      ).toBeGreaterThan(0);
      const svgs = relativeLinks(section).filter((t) => t.endsWith('.svg'));
      expect(svgs.length).toBeGreaterThan(0);
      for (const target of [...svgs.map((t) => join(dirname(json), t)), `${base}.html`, `${base}.png`])
        expect(existsSync(target), target).toBe(true);
    },
  );

  const manuals = [
    join(ROOT, 'README.md'),
    join(ROOT, 'runner', 'README.md'),
    join(ROOT, 'emulator', 'README.md'),
    ...files(join(ROOT, 'docs'), '.md'),
  ];
  it.each([...manuals, ...files(RESULTS, '.md')].map((f) => [relative(ROOT, f), f]))(
    'every relative link in %s exists',
    (_, md) => {
      const missing = relativeLinks(readFileSync(md, 'utf8')).filter(
        (t) => !existsSync(join(dirname(md), decodeURI(t))),
      );
      expect(missing).toEqual([]);
    },
  );
});
