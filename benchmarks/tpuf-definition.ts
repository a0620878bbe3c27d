// One definition of turbopuffer's benchmark tool (tpuf-benchmark's .toml files), made small for `make
// try-tpuf-benchmark`: fewer documents, lower rates and fewer workers, and the tool's `random` datasource wherever it
// serves every function the section's templates call. Only the numbers and datasources of lines outside the templates
// change; the templates, which are the request shapes the tool sends, stay byte for byte. Pure, so tested alone.

/** How small to make a definition. */
export interface SmallRun {
  documents: number;
  qps: number;
  concurrency: number;
}

/** What the rewrite changed, and which datasources still read files (the tool's cache, not `random`). */
export interface RewrittenDefinition {
  toml: string;
  /** `section: key old -> new`, one per changed line. */
  changes: string[];
  /** Datasources kept because their templates call functions `random` lacks, e.g. `CohereMSMarco`. */
  fileDatasources: string[];
}

// What tpuf-benchmark's pkg/datasource/random.go serves, besides the functions every source gets
// (pkg/bench/definition.go's makeFuncMap: N, add, id, string, uuid, json, head_words, ...).
const RANDOM_SERVES = new Set(['id', 'one_of', 'vector', 'timestamp']);
// What the file sources (Cohere Wikipedia and MSMarco, Deep1B) serve and `random` does not.
const FILE_ONLY = new Set(['text', 'query', 'full_text_query']);

const HEADER = /^\s*\[([^\]]+)\]\s*(#.*)?$/;
const ASSIGNMENT = /^(\s*)([A-Za-z0-9_]+)(\s*=\s*)(.*?)(\s*(?:#.*)?)$/;

interface Line {
  text: string;
  section: string;
  /** Inside a multi-line string (a template or description): never rewritten. */
  quoted: boolean;
}

/** The lines with the table each belongs to, and whether it lies inside a """ or ''' string. */
function scan(toml: string): Line[] {
  const lines: Line[] = [];
  let section = '';
  let open: string | undefined;
  for (const text of toml.split('\n')) {
    const startsQuoted = open !== undefined;
    if (!startsQuoted) {
      const header = HEADER.exec(text);
      if (header) section = header[1].trim();
    }
    // Count the delimiters on the line to know whether a multi-line string stays open after it.
    for (const match of text.matchAll(/"""|'''/g)) {
      if (open === undefined) open = match[0];
      else if (open === match[0]) open = undefined;
    }
    lines.push({ text, section, quoted: startsQuoted });
  }
  return lines;
}

/** The function names called inside the {{ }} actions of `template`. */
export function templateFunctions(template: string): Set<string> {
  const names = new Set<string>();
  for (const action of template.matchAll(/\{\{(.*?)\}\}/gs)) {
    // Identifiers not after a dot (fields and methods such as $q.Text) nor a $ (variables), nor inside quotes.
    const code = action[1].replace(/"(?:[^"\\]|\\.)*"|`[^`]*`/g, '');
    for (const word of code.matchAll(/(?<![.$\w])([A-Za-z_]\w*)/g)) names.add(word[1]);
  }
  return names;
}

/** The text of every multi-line string, in order: the templates (and descriptions) that must not change. */
export function multilineStrings(toml: string): string[] {
  return [...toml.matchAll(/"""([\s\S]*?)"""|'''([\s\S]*?)'''/g)].map((m) => m[1] ?? m[2]);
}

const tomlInt = (raw: string): number => Number(raw.replace(/_/g, ''));

/** `toml` made small as `run` says; throws when a line it must rewrite is not a plain number or string. */
export function smallDefinition(toml: string, run: SmallRun): RewrittenDefinition {
  const lines = scan(toml);
  // The text of each table, templates included, to see which functions its datasource must serve.
  const sectionText = new Map<string, string>();
  for (const line of lines)
    sectionText.set(line.section, `${sectionText.get(line.section) ?? ''}${line.text}\n`);
  const changes: string[] = [];
  const fileDatasources = new Set<string>();
  const out = lines.map(({ text, section, quoted }) => {
    if (quoted) return text;
    const assignment = ASSIGNMENT.exec(text);
    if (!assignment) return text;
    const [, indent, key, equals, value, rest] = assignment;
    const where = section === '' ? '(top)' : section;
    const replace = (next: string): string => {
      if (next === value) return text;
      changes.push(`${where}: ${key} ${value} -> ${next}`);
      return `${indent}${key}${equals}${next}${rest}`;
    };
    const number = (): number => {
      const parsed = tomlInt(value);
      if (!Number.isFinite(parsed)) throw new Error(`${where}: ${key} = ${value} is not a number`);
      return parsed;
    };
    if (key === 'document_count' && section === 'setup') return replace(String(run.documents));
    if (key === 'qps' || key === 'wps') return replace(String(Math.min(number(), run.qps)));
    if (key === 'concurrency') return replace(String(Math.min(number(), run.concurrency)));
    if (key === 'datasource') {
      const kind = /^"([^"]*)"$/.exec(value)?.[1];
      if (kind === undefined) throw new Error(`${where}: datasource = ${value} is not a plain string`);
      if (kind === 'random') return text;
      const called = templateFunctions(multilineStrings(sectionText.get(section) ?? '').join('\n'));
      const needsFiles = [...called].some((name) => FILE_ONLY.has(name) && !RANDOM_SERVES.has(name));
      if (needsFiles) {
        fileDatasources.add(kind);
        return text;
      }
      return replace('"random"');
    }
    return text;
  });
  return { toml: out.join('\n'), changes, fileDatasources: [...fileDatasources].sort() };
}
