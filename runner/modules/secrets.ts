// k6/secrets and k6's `--secret-source` sources (docs: javascript-api/k6-secrets, using-k6/secret-source):
// `file=PATH` (KEY=VALUE lines) and `mock=KEY=VALUE,...`, each with optional `name=NAME` and `default`. Values are
// redacted from every log line as ***SECRET_REDACTED***. The flag's values reach each realm's thread through the
// environment (BENCH_SECRET_SOURCES, set by `bench run`), so VU threads, hosted VUs and setup read the same sources.
import { readFileSync } from 'node:fs';

export const SECRET_SOURCES_ENV = 'BENCH_SECRET_SOURCES';
export const REDACTED = '***SECRET_REDACTED***';

export type SecretSources = Map<string, Map<string, string>>;

/** Splits `name=x`, `default` and the rest out of a source's configuration, as k6 does. */
function nameAndDefault(config: string): { name: string; isDefault: boolean; rest: string } {
  let name = '';
  let isDefault = false;
  const rest: string[] = [];
  for (const part of config === '' ? [] : config.split(',')) {
    if (part === 'default') isDefault = true;
    else if (part.startsWith('name=')) name = part.slice('name='.length);
    else rest.push(part);
  }
  return { name, isDefault, rest: rest.join(',') };
}

function pairs(list: string[], what: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const kv of list) {
    const eq = kv.indexOf('=');
    if (eq < 0) throw new Error(`parsing "${kv}", needs =${what}`);
    out.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
  return out;
}

/** The sources of `--secret-source` values, by name ("default" among them when one is); throws k6's errors. */
export function parseSecretSources(
  values: readonly string[],
  readFile: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): SecretSources {
  const sources: SecretSources = new Map();
  let defaultSource: Map<string, string> | undefined;
  for (const line of values) {
    const eq = line.indexOf('=');
    const type = eq < 0 ? line.trim() : line.slice(0, eq);
    if (type === '') throw new Error(`couldn't parse secret source configuration "${line}"`);
    const { name, isDefault, rest } = nameAndDefault(eq < 0 ? '' : line.slice(eq + 1));
    let source: Map<string, string>;
    if (type === 'file') {
      let filename = '';
      for (const part of rest.split(',')) {
        if (part.startsWith('filename=')) filename = part.slice('filename='.length);
        else if (part.includes('='))
          throw new Error(`unknown configuration key for file secret source "${part.split('=')[0]}"`);
        else if (part !== '') filename = part;
      }
      const text = readFile(filename);
      source = pairs(
        text.split(/\r?\n/).filter((l) => l !== ''),
        '',
      );
    } else if (type === 'mock') {
      source = pairs(rest.split(','), '');
    } else if (type === 'url' || type === 'cloud') {
      throw new Error(
        `secret source type "${type}" is not supported by bench's runner (it has file and mock); put the secrets in a file and use --secret-source=file=PATH`,
      );
    } else {
      throw new Error(`no secret source for type "${type}" for configuration "${line}"`);
    }
    const key = name === '' ? type : name;
    if (sources.has(key))
      throw new Error(`secret source for name "${type}" already registered before configuration "${line}"`);
    sources.set(key, source);
    if (isDefault) {
      if (defaultSource)
        throw new Error(`can't have two secret sources that are default ones, second one was "${rest}"`);
      defaultSource = source;
    }
  }
  if (defaultSource) sources.set('default', defaultSource);
  else if (sources.size === 1) sources.set('default', [...sources.values()][0]);
  return sources;
}

/** A function that replaces every secret value in a log line (raw and as JSON-escaped text) with REDACTED. */
export function secretRedactor(sources: SecretSources): ((line: string) => string) | undefined {
  const values = new Set<string>();
  for (const source of sources.values()) for (const v of source.values()) if (v !== '') values.add(v);
  if (values.size === 0) return undefined;
  const forms = [...values].flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]);
  // Longest first, so a secret that contains another is replaced whole.
  const unique = [...new Set(forms)].sort((a, b) => b.length - a.length);
  return (line) => {
    let out = line;
    for (const v of unique) out = out.split(v).join(REDACTED);
    return out;
  };
}

let threadSources: SecretSources | undefined;

function sourcesOfThread(): SecretSources {
  if (!threadSources) {
    const raw = process.env[SECRET_SOURCES_ENV];
    threadSources = parseSecretSources(raw ? (JSON.parse(raw) as string[]) : []);
  }
  return threadSources;
}

export function createSecretsModule(): Record<string, unknown> {
  const lookup = async (sourceName: string, key: unknown): Promise<string> => {
    const sources = sourcesOfThread();
    if (sources.size === 0) throw new Error('no secret sources are configured');
    const source = sources.get(sourceName);
    if (!source) throw new Error(`no secret source with name "${sourceName}" is configured`);
    const value = source.get(String(key));
    if (value === undefined) throw new Error('no value');
    return value;
  };
  const members = {
    get: (key: unknown) => lookup('default', key),
    source: (name: unknown) => ({ get: (key: unknown) => lookup(String(name), key) }),
  };
  return { ...members, default: members };
}
