// The runnable k6 scripts inside k6's documentation (grafana/k6-docs, Markdown): the fenced JavaScript blocks that
// export a default function and import nothing but k6's own modules, named after the page they come from. Pure, so
// what counts as a snippet is tested; benchmarks/try-k6-scripts.ts writes them out and runs them.

export interface Snippet {
  /** `<page path with / as _>_<n>.js`, n counting the page's runnable blocks from 0. */
  name: string;
  code: string;
}

// A fence may be indented (inside a shortcode or a list item): the block's lines lose the fence's indentation.
const FENCE = /^([ \t]*)```(?:javascript|js)[ \t]*\n([\s\S]*?)\n\1```[ \t]*$/gm;
const IMPORT = /\bimport\s+(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The modules a script imports or requires, in order. */
export function importedModules(code: string): string[] {
  return [...code.matchAll(IMPORT)].map((match) => match[1] ?? match[2]);
}

/** k6 itself or one of its built-in modules; extensions (k6/x/...) and anything else are not. */
const isK6Module = (specifier: string): boolean => /^k6(\/(?!x\/)[\w./-]+)?$/.test(specifier);

/** The page's runnable snippets: a default export and only k6's own imports. */
export function snippetsFromMarkdown(markdown: string, page: string): Snippet[] {
  const base = page
    .replace(/\.md$/, '')
    .replace(/\/_index$/, '')
    .replace(/[^\w]+/g, '_');
  const found: Snippet[] = [];
  for (const match of markdown.matchAll(FENCE)) {
    const indent = match[1];
    const code = match[2]
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join('\n');
    if (!/\bexport\s+default\b/.test(code)) continue;
    if (!importedModules(code).every(isK6Module)) continue;
    found.push({ name: `${base}_${found.length}.js`, code: `${code}\n` });
  }
  return found;
}
