// Remote modules as k6 loads them (`import { x } from 'https://jslib.k6.io/...'`): fetched while the script loads,
// relative imports inside them resolved against their own URL, and kept in an on-disk cache (by URL, content by
// hash) so a later run without network still loads them. `--offline` (BENCH_OFFLINE=1) never fetches: a module
// missing from the cache stops the run naming its URL. k6 allows only https:; bench also allows http: to a loopback
// host, which tests and local module servers use.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BenchError } from '../../core/errors';
import { EXIT_SCRIPT_EXCEPTION } from '../../core/exit-codes';

/** What a cached URL points at. */
interface CacheEntry {
  url: string;
  sha256: string;
  fetchedAt: string;
}

export interface RemoteModuleSource {
  text: string;
  /** Set when the text came from the cache because the fetch failed: the warning to log. */
  staleNote?: string;
}

/** Where modules are cached: BENCH_MODULE_CACHE, else $XDG_CACHE_HOME/bench/modules, else ~/.cache/bench/modules. */
export function moduleCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BENCH_MODULE_CACHE) return env.BENCH_MODULE_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'bench', 'modules');
}

/** True when `--offline` (or BENCH_OFFLINE=1) forbids fetching modules. */
export function offlineMode(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.BENCH_OFFLINE === '1' || env.BENCH_OFFLINE === 'true';
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Why k6 (or bench, for http: beyond loopback) refuses to load `url`, or undefined when it may be fetched. */
export function remoteUrlProblem(specifier: string): string | undefined {
  let url: URL;
  try {
    url = new URL(specifier);
  } catch (error) {
    return `invalid module URL ${specifier}: ${(error as Error).message}`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return undefined;
  return `only supported schemes for imports are file and https, ${specifier} has \`${url.protocol.slice(0, -1)}\`${url.protocol === 'http:' ? ' (bench also allows http: to a loopback host)' : ''}`;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export class ModuleCache {
  constructor(readonly dir: string) {}

  private entryPath(url: string): string {
    return join(this.dir, 'urls', `${sha256(url)}.json`);
  }

  private blobPath(hash: string): string {
    return join(this.dir, 'blobs', `${hash}.js`);
  }

  read(url: string): (CacheEntry & { text: string }) | undefined {
    try {
      const entry = JSON.parse(readFileSync(this.entryPath(url), 'utf8')) as CacheEntry;
      const text = readFileSync(this.blobPath(entry.sha256), 'utf8');
      // A blob that does not match its hash (a partial write, an edit) is not used.
      if (entry.url !== url || sha256(text) !== entry.sha256) return undefined;
      return { ...entry, text };
    } catch {
      return undefined;
    }
  }

  write(url: string, text: string): void {
    const hash = sha256(text);
    mkdirSync(join(this.dir, 'urls'), { recursive: true });
    mkdirSync(join(this.dir, 'blobs'), { recursive: true });
    // Written aside and renamed into place, so a run reading the cache never sees half a file.
    const put = (path: string, data: string) => {
      const temp = `${path}.${process.pid}.tmp`;
      writeFileSync(temp, data);
      renameSync(temp, path);
    };
    put(this.blobPath(hash), text);
    const entry: CacheEntry = { url, sha256: hash, fetchedAt: new Date().toISOString() };
    put(this.entryPath(url), `${JSON.stringify(entry)}\n`);
  }
}

const FETCH_TIMEOUT_MS = 60_000;

/** A reply other than 200, in k6's words. */
class StatusError extends Error {}

/** One GET as k6's loader makes it: a 200 is the module, 404 and other statuses are errors with k6's texts. */
async function get(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  if (response.status === 404) throw new StatusError(`not found: ${url}`);
  if (response.status !== 200) throw new StatusError(`wrong status code (${response.status}) for: ${url}`);
  return await response.text();
}

/** A failed fetch in the words of Go's HTTP client, which k6's message quotes. */
function goFetchError(url: string, error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string; address?: string; port?: number } };
  const cause = e.cause;
  const target = new URL(url);
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `Get "${url}": context deadline exceeded`;
  if (!cause) return e.message;
  if (cause.code === 'ECONNREFUSED')
    return `Get "${url}": dial tcp ${cause.address ?? target.hostname}:${cause.port ?? target.port}: connect: connection refused`;
  if (cause.code === 'ENOTFOUND' || cause.code === 'EAI_AGAIN')
    return `Get "${url}": dial tcp: lookup ${target.hostname}: no such host`;
  return `Get "${url}": ${cause.message ?? e.message}`;
}

/**
 * The source of a remote module: fetched (k6 asks with `_k6=1` added to the query first, then as written) and cached;
 * from the cache when offline, or when the fetch fails and the cache has it.
 */
export async function loadRemoteModule(
  specifier: string,
  url: string,
  options: { offline: boolean; cache: ModuleCache },
): Promise<RemoteModuleSource> {
  const cached = options.cache.read(url);
  if (options.offline) {
    if (cached) return { text: cached.text };
    throw new BenchError(
      `remote module ${url} is not in bench's module cache (${options.cache.dir}) and --offline forbids fetching it: run once with network access, or bundle the script's modules with \`bench vendor\``,
      EXIT_SCRIPT_EXCEPTION,
    );
  }
  const marked = new URL(url);
  marked.search = marked.search ? `${marked.search}&_k6=1` : '?_k6=1';
  let text: string;
  try {
    try {
      text = await get(marked.href);
    } catch {
      text = await get(url);
    }
  } catch (error) {
    const why = error instanceof StatusError ? error.message : goFetchError(url, error);
    if (cached) {
      return {
        text: cached.text,
        staleNote: `remote module ${url} could not be fetched (${why}); using the copy cached ${cached.fetchedAt}`,
      };
    }
    throw new BenchError(
      `The moduleSpecifier "${specifier}" couldn't be retrieved from the resolved url "${url}". Error : "${why}"`,
      EXIT_SCRIPT_EXCEPTION,
    );
  }
  try {
    options.cache.write(url, text);
  } catch {
    // A cache that cannot be written (read-only home) costs only the next offline run.
  }
  return { text };
}
