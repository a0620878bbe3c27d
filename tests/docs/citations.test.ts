// Self-contained docs: no file of the repository (outside results/, whose committed runs are records) points at the
// reference folder that lives outside it, every Markdown file a file cites exists at the path it names, and every
// section citation (a Markdown path followed by §N) names a numbered heading of that file.
//
// Where citations live: Markdown prose, and comments in code. String literals in code are data (file names a tool
// writes, fixtures), so for them only the outside-folder rule and section citations are checked.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

interface SourceFile {
  path: string;
  text: string;
}

interface Repo {
  /** True when the repository-relative path is a file. */
  exists(path: string): boolean;
  /** The text of a repository-relative Markdown file. */
  read(path: string): string;
}

// Spelt as patterns so this file does not name what it forbids.
const OUTSIDE = [/\.\.\/shared\b/, /\bshared\//];
/** A Markdown path: relative segments, directories, a name ending in .md, not part of a URL or a longer name. */
const MD_PATH = String.raw`((?:\.{1,2}\/)*(?:[\w-]+\/)*[\w.-]*\w\.md)(?![\w-]|\.\w)`;
const MD_TOKEN = new RegExp(String.raw`(?<![\w./:-])${MD_PATH}`, 'g');
const SECTION = String.raw`\d+(?:\.\d+)*`;
const SECTION_REF = String.raw`§\s?(${SECTION})(?:\s?[-–]\s?(${SECTION}))?`;
/** A Markdown path, an optional closing backtick, then one or more section references. */
const CITATION = new RegExp(
  String.raw`(?<![\w./:-])${MD_PATH}\`?\s*(${SECTION_REF}(?:\s*(?:,|and)\s*${SECTION_REF})*)`,
  'g',
);
const REF = new RegExp(SECTION_REF, 'g');
/** Names the tools write (scripts/filter-cost-report.ts), mentioned in prose as outputs, not as citations. */
const OUTPUT_NAMES = new Set(['report.md']);
const CODE = /\.(?:[cm]?ts|[cm]?js)$/;

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The comment ranges of a TypeScript or JavaScript file, found by the compiler's parser. */
function commentRanges(file: SourceFile): [number, number][] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, number>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, r.end);
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(file.text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(file.text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...seen.entries()];
}

/** Repository-relative path a citation in `from` resolves to: beside the citing file, else from the root. */
function resolve(repo: Repo, from: string, cited: string): string | null {
  for (const candidate of [normalize(join(dirname(from), cited)), normalize(cited)])
    if (!candidate.startsWith('..') && repo.exists(candidate)) return candidate;
  return null;
}

const headingCache = new Map<string, Set<string>>();
function sections(repo: Repo, doc: string): Set<string> {
  let found = headingCache.get(doc);
  if (!found) {
    found = new Set();
    for (const m of repo.read(doc).matchAll(/^#{1,6}\s+(\d+(?:\.\d+)*)[.\s]/gm)) found.add(m[1]);
    headingCache.set(doc, found);
  }
  return found;
}

function sectionNumbers(refs: string): string[] {
  return [...refs.matchAll(REF)].flatMap((m) => (m[2] ? [m[1], m[2]] : [m[1]]));
}

/** Every problem in one file, as `path:line: message`. */
function problems(repo: Repo, file: SourceFile): string[] {
  const out: string[] = [];
  const at = (index: number, message: string) =>
    out.push(`${file.path}:${lineOf(file.text, index)}: ${message}`);
  for (const pattern of OUTSIDE) {
    for (const m of file.text.matchAll(new RegExp(pattern, 'g')))
      at(m.index, `names "${m[0]}", a folder outside the repository: cite docs/ instead`);
  }

  const cited = new Set<number>();
  for (const m of file.text.matchAll(CITATION)) {
    const [, path, refs] = m;
    cited.add(m.index);
    const doc = resolve(repo, file.path, path);
    if (!doc) {
      at(m.index, `cites ${path} ${refs}, which is not in the repository`);
      continue;
    }
    for (const n of sectionNumbers(refs))
      if (!sections(repo, doc).has(n)) at(m.index, `cites ${path} §${n}, which has no section ${n}`);
  }

  // Inside docs/, a bare §N refers to the same file.
  if (file.path.startsWith('docs/') && file.path.endsWith('.md')) {
    const inCitation = [...file.text.matchAll(CITATION)].map((m) => [m.index, m.index + m[0].length]);
    for (const m of file.text.matchAll(REF)) {
      if (inCitation.some(([from, to]) => m.index >= from && m.index < to)) continue;
      for (const n of m[2] ? [m[1], m[2]] : [m[1]])
        if (!sections(repo, file.path).has(n)) at(m.index, `refers to §${n}, which this file does not have`);
    }
  }

  if (!file.text.includes('.md')) return out;
  const prose: [number, number][] = CODE.test(file.path) ? commentRanges(file) : [[0, file.text.length]];
  for (const [from, to] of prose) {
    for (const m of file.text.slice(from, to).matchAll(MD_TOKEN)) {
      const index = from + m.index;
      const path = m[1];
      if (cited.has(index) || path.startsWith('results/') || OUTPUT_NAMES.has(path)) continue;
      if (!resolve(repo, file.path, path))
        at(index, `names ${path}, which is not in the repository at that path`);
    }
  }
  return out;
}

/** This file: its checker fixtures break every rule on purpose. */
const SELF = 'tests/docs/citations.test.ts';

function repositoryFiles(): SourceFile[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    encoding: 'utf8',
  });
  return listed
    .split('\0')
    .filter(
      (p) => p !== '' && p !== SELF && !p.startsWith('results/') && existsSync(p) && statSync(p).isFile(),
    )
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }))
    .filter((f) => !f.text.includes('\0'));
}

const disk: Repo = {
  exists: (path) => existsSync(path) && statSync(path).isFile(),
  read: (path) => readFileSync(path, 'utf8'),
};

describe('docs are self-contained', () => {
  it('no file outside results/ points outside the repository or cites a missing doc or section', () => {
    const files = repositoryFiles();
    expect(files.some((f) => f.path === 'docs/README.md')).toBe(true);
    expect(files.flatMap((f) => problems(disk, f))).toEqual([]);
  });

  describe('the checker', () => {
    const docs: Record<string, string> = {
      'docs/a.md': '# A\n\n## 1. One\n\n### 1.2 Two\n\nSee §1.2 and §9.\n',
      'lib/README.md': '# lib\n',
    };
    const repo: Repo = { exists: (p) => p in docs, read: (p) => docs[p] };
    const check = (path: string, text: string) => problems(repo, { path, text });

    it('accepts citations of existing files and sections, in prose and in code comments', () => {
      expect(
        check('README.md', 'see docs/a.md §1.2 and `docs/a.md` §1, lib/README.md and [a](docs/a.md#x).\n'),
      ).toEqual([]);
      expect(check('lib/x.ts', "// docs/a.md §1, §1.2; README.md\nconst f = 'out/report.md';\n")).toEqual([]);
      expect(check('lib/x.ts', "/** (docs/a.md §1-1.2) */\nwrite(name + '.md', 'x.md');\n")).toEqual([]);
    });

    it('flags the outside folder, missing files, missing sections and bare names of other folders', () => {
      // Joined at run time, so this file does not name the folder either.
      const folder = ['sha', 'red'].join('');
      expect(check('README.md', `see ../${folder}/reference/x.md\n`)).toEqual([
        `README.md:1: names "../${folder}", a folder outside the repository: cite docs/ instead`,
        `README.md:1: names "${folder}/", a folder outside the repository: cite docs/ instead`,
        `README.md:1: names ../${folder}/reference/x.md, which is not in the repository at that path`,
      ]);
      expect(check('lib/x.ts', '// (other.md §3.5)\n// a.md §1\n')).toEqual([
        'lib/x.ts:1: cites other.md §3.5, which is not in the repository',
        'lib/x.ts:2: cites a.md §1, which is not in the repository',
      ]);
      expect(check('lib/x.ts', '// docs/a.md §1, §4.1\n')).toEqual([
        'lib/x.ts:1: cites docs/a.md §4.1, which has no section 4.1',
      ]);
      expect(check('lib/x.ts', "// as in gone.md\nconst s = 'gone.md §2';\n")).toEqual([
        'lib/x.ts:2: cites gone.md §2, which is not in the repository',
        'lib/x.ts:1: names gone.md, which is not in the repository at that path',
      ]);
    });

    it('checks bare section references inside docs/ against the same file', () => {
      expect(check('docs/a.md', docs['docs/a.md'])).toEqual([
        'docs/a.md:7: refers to §9, which this file does not have',
      ]);
    });
  });
});
