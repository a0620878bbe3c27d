// Loads a k6 script for the runner: one esbuild pass (for .ts and .js alike) that maps `k6`/`k6/*` and the
// built-in jslib URLs to the runner's modules and refuses anything unsupported before any JS runs (exit 107).
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';
import { BenchError } from '../../core/errors';
import { EXIT_SCRIPT_EXCEPTION } from '../../core/exit-codes';
import { BUNDLE_DIR_PREFIX, createOwnedDir } from '../owned-temp-dirs';
import { requireCjs } from '../require-cjs';
import {
  HOSTED_EXPORTS,
  IMPORT_META_RESOLVE_GLOBAL,
  REMOTE_MODULES,
  requiredModuleSource,
  TIMERS_GLOBAL,
  unsupportedReason,
  virtualModuleSource,
} from './k6-modules';
import {
  loadRemoteModule,
  ModuleCache,
  moduleCacheDir,
  offlineMode,
  type RemoteModuleSource,
  remoteUrlProblem,
} from './remote-modules';
import { markThrows } from './thrown-values';

export interface LoadedScript {
  /** Absolute path of the entry script. */
  path: string;
  /** Directory open() resolves relative paths against. */
  dir: string;
  /** file: URL of the bundled ES module every realm imports. */
  bundleUrl: string;
  /** The same script as a classic script, for hosted VUs (runner/vu-host.worker.ts); undefined without one. */
  hostedScriptPath?: string;
  /** Why there is no classic script when one was asked for only if possible. */
  hostedProblem?: string;
  /** Warnings of the load to log: remote modules taken from the cache because they could not be fetched. */
  notes: string[];
  /** Removes the temporary bundle. */
  dispose(): void;
}

const esbuild = requireCjs('esbuild') as typeof Esbuild;

const NAMESPACE = 'bench-k6';
/** The same modules as CommonJS, for require() (a module's identity is its namespace and path). */
const CJS_NAMESPACE = 'bench-k6-required';
/** Modules loaded from https: URLs (and http: to loopback). */
const REMOTE_NAMESPACE = 'bench-remote';

/**
 * The script's timer globals are k6/timers (they keep its iteration open), bound in the bundle rather than by
 * replacing the thread's globals: Node code on the same thread (undici, serving --vu-async-io requests) needs
 * Node's own timers, with unref/refresh.
 */
const TIMER_DEFINES = Object.fromEntries(
  ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'].flatMap((name) => [
    [name, `${TIMERS_GLOBAL}.${name}`],
    [`globalThis.${name}`, `${TIMERS_GLOBAL}.${name}`],
  ]),
);

/**
 * k6's import.meta.resolve(path): a file: URL for `open()`. The bundle has no module URLs of its own, so paths resolve
 * against the entry script's directory, as bench's open() does.
 */
const BUNDLE_DEFINES = { ...TIMER_DEFINES, 'import.meta.resolve': IMPORT_META_RESOLVE_GLOBAL };

/** Remote modules of one script load, shared by its bundles (the ES module and the classic script). */
interface RemoteModules {
  offline: boolean;
  cache: ModuleCache;
  sources: Map<string, Promise<RemoteModuleSource>>;
}

/**
 * The plugin that serves the script's imports: k6 modules from the realm (or, with `keepK6`, left as imports for
 * k6 or bench to serve, as `bench vendor` writes them), remote modules from their URLs or the cache.
 */
function k6Plugin(problems: string[], remote: RemoteModules, keepK6 = false): Esbuild.Plugin {
  const missing = (reason: string) => {
    problems.push(reason);
    return { path: reason, namespace: NAMESPACE, pluginData: 'missing' };
  };
  const remoteModule = (specifier: string, url: string) => {
    const problem = remoteUrlProblem(url);
    if (problem) return missing(problem);
    return { path: url, namespace: REMOTE_NAMESPACE, pluginData: specifier };
  };
  return {
    name: 'bench-k6-modules',
    setup(build) {
      build.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => {
        if (keepK6) return { path: args.path, external: true };
        const reason = unsupportedReason(args.path);
        if (reason) return missing(reason);
        // k6's require() of a k6 module returns the module's object itself (jslib's tracing instrumentation assigns
        // to it: http.get = wrapped), where esbuild's require() of an ES module returns a read-only copy.
        if (args.kind === 'require-call') return { path: args.path, namespace: CJS_NAMESPACE };
        return { path: args.path, namespace: NAMESPACE };
      });
      build.onResolve({ filter: /^https?:\/\// }, (args) => {
        if (args.path in REMOTE_MODULES)
          return keepK6
            ? { path: args.path, external: true }
            : { path: REMOTE_MODULES[args.path], namespace: NAMESPACE };
        return remoteModule(args.path, args.path);
      });
      // What a remote module imports besides k6 modules and URLs: paths relative to its own URL, as in k6.
      build.onResolve({ filter: /.*/, namespace: REMOTE_NAMESPACE }, (args) => {
        if (args.path.startsWith('.') || args.path.startsWith('/'))
          return remoteModule(args.path, new URL(args.path, args.importer).href);
        if (args.path.startsWith('file:'))
          return missing(`origin (${args.importer}) not allowed to load local file: ${args.path}`);
        return missing(`The moduleSpecifier "${args.path}" couldn't be recognised as something k6 supports.`);
      });
      build.onLoad({ filter: /.*/, namespace: REMOTE_NAMESPACE }, async (args) => {
        let source = remote.sources.get(args.path);
        if (!source) {
          source = loadRemoteModule(String(args.pluginData ?? args.path), args.path, remote);
          remote.sources.set(args.path, source);
        }
        try {
          const { text } = await source;
          return { contents: text, loader: /\.ts(\?|#|$)/.test(new URL(args.path).pathname) ? 'ts' : 'js' };
        } catch (error) {
          if (!(error instanceof BenchError)) throw error;
          problems.push(error.message);
          return { contents: 'export default {};', loader: 'js' };
        }
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: args.pluginData === 'missing' ? 'export default {};' : virtualModuleSource(args.path),
        loader: 'js',
      }));
      build.onLoad({ filter: /.*/, namespace: CJS_NAMESPACE }, (args) => ({
        contents: requiredModuleSource(args.path),
        loader: 'js',
      }));
    },
  };
}

/** Bundles `path` to `outfile`'s text; the k6 plugin collects unsupported imports in `problems`. */
async function bundle(
  path: string,
  outfile: string,
  problems: string[],
  format: 'esm' | 'iife',
  remote: RemoteModules,
): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [path],
    // The bundle's eventual location, so source map paths resolve back to the original files in stack traces.
    outfile,
    bundle: true,
    write: false,
    format,
    // The classic script hosted VUs evaluate in their vm contexts leaves its exports in this global.
    globalName: format === 'iife' ? HOSTED_EXPORTS : undefined,
    platform: 'neutral',
    target: 'es2022',
    sourcemap: 'inline',
    logLevel: 'silent',
    plugins: [k6Plugin(problems, remote)],
    define: BUNDLE_DEFINES,
  });
  return markThrows(result.outputFiles[0].text, format === 'esm' ? 'module' : 'script');
}

/**
 * Bundles the script for the realms: an ES module for thread-per-VU realms and, with `hosted`, also a classic script
 * for the vm contexts of hosted VUs (`true`: required, as with --vu-threads; `'if-possible'`: a script that cannot be
 * one, e.g. with top-level await, simply has none).
 */
export async function loadScript(
  scriptPath: string,
  options: { hosted?: boolean | 'if-possible' } = {},
): Promise<LoadedScript> {
  const path = resolve(scriptPath);
  const problems: string[] = [];
  const remote: RemoteModules = {
    offline: offlineMode(),
    cache: new ModuleCache(moduleCacheDir()),
    sources: new Map(),
  };
  // A run killed outright leaves its directory: the next run removes those whose owner is gone.
  const { dir } = createOwnedDir(tmpdir(), BUNDLE_DIR_PREFIX);
  const name = basename(path).replace(/\.[cm]?[jt]s$/, '');
  const file = join(dir, `${name}.mjs`);
  const hostedFile = join(dir, `${name}.hosted.js`);
  const fail = (message: string): never => {
    rmSync(dir, { recursive: true, force: true });
    throw new BenchError(message, EXIT_SCRIPT_EXCEPTION);
  };
  const failure = (error: unknown, what: string): never => {
    if (problems.length > 0) fail(problems.join('\n'));
    const messages = (error as Esbuild.BuildFailure).errors?.map((e) =>
      e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ${e.text}` : e.text,
    );
    return fail(`${what}: ${messages?.join('; ') ?? String(error)}`);
  };
  let code = '';
  try {
    code = await bundle(path, file, problems, 'esm', remote);
  } catch (error) {
    failure(error, `could not load script ${scriptPath}`);
  }
  if (problems.length > 0) fail([...new Set(problems)].join('\n'));
  writeFileSync(file, code);
  let hostedProblem: string | undefined;
  if (options.hosted) {
    try {
      writeFileSync(hostedFile, await bundle(path, hostedFile, problems, 'iife', remote));
    } catch (error) {
      if (options.hosted === true)
        failure(
          error,
          `could not load script ${scriptPath} for --vu-threads (VUs sharing threads run it as a classic script)`,
        );
      const messages = (error as Esbuild.BuildFailure).errors?.map((e) => e.text);
      hostedProblem = `it cannot be bundled as a classic script (${messages?.join('; ') ?? String(error)})`;
    }
  }
  const notes: string[] = [];
  for (const source of remote.sources.values()) {
    const note = (await source.catch(() => undefined))?.staleNote;
    if (note) notes.push(note);
  }
  return {
    notes,
    path,
    dir: dirname(path),
    bundleUrl: pathToFileURL(file).href,
    hostedScriptPath: options.hosted && !hostedProblem ? hostedFile : undefined,
    hostedProblem,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * `bench vendor`: the script with every remote module it imports (and theirs) bundled in, k6 modules left as imports,
 * so it runs with no network, under bench (`--offline`) and under k6 alike. Remote modules come from their URLs, or
 * from the cache when they cannot be fetched (or with BENCH_OFFLINE=1). Returns the warnings of the load.
 */
export async function vendorScript(scriptPath: string, outfile: string): Promise<string[]> {
  const problems: string[] = [];
  const remote: RemoteModules = {
    offline: offlineMode(),
    cache: new ModuleCache(moduleCacheDir()),
    sources: new Map(),
  };
  try {
    await esbuild.build({
      entryPoints: [resolve(scriptPath)],
      outfile: resolve(outfile),
      bundle: true,
      write: true,
      format: 'esm',
      platform: 'neutral',
      // What k6's JS engine runs reliably (as scripts/build.ts bundles the experiments).
      target: 'es2020',
      sourcemap: 'inline',
      sourcesContent: true,
      logLevel: 'silent',
      plugins: [k6Plugin(problems, remote, true)],
      banner: {
        js: `// Bundled by \`bench vendor\` from ${basename(scriptPath)} and the remote modules it imports.`,
      },
    });
  } catch (error) {
    if (problems.length === 0) {
      const messages = (error as Esbuild.BuildFailure).errors?.map((e) =>
        e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ${e.text}` : e.text,
      );
      throw new BenchError(
        `could not bundle ${scriptPath}: ${messages?.join('; ') ?? String(error)}`,
        EXIT_SCRIPT_EXCEPTION,
      );
    }
  }
  if (problems.length > 0) {
    rmSync(resolve(outfile), { force: true });
    throw new BenchError([...new Set(problems)].join('\n'), EXIT_SCRIPT_EXCEPTION);
  }
  const notes: string[] = [];
  for (const source of remote.sources.values()) {
    const note = (await source.catch(() => undefined))?.staleNote;
    if (note) notes.push(note);
  }
  return notes;
}
