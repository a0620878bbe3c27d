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
  REMOTE_MODULES,
  requiredModuleSource,
  TIMERS_GLOBAL,
  unsupportedReason,
  virtualModuleSource,
} from './k6-modules';
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
  /** Removes the temporary bundle. */
  dispose(): void;
}

const esbuild = requireCjs('esbuild') as typeof Esbuild;

const NAMESPACE = 'bench-k6';
/** The same modules as CommonJS, for require() (a module's identity is its namespace and path). */
const CJS_NAMESPACE = 'bench-k6-required';

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

function k6Plugin(problems: string[]): Esbuild.Plugin {
  return {
    name: 'bench-k6-modules',
    setup(build) {
      build.onResolve({ filter: /^(k6(\/.*)?|https?:\/\/.*)$/ }, (args) => {
        const reason = unsupportedReason(args.path);
        if (reason) {
          problems.push(reason);
          return { path: args.path, namespace: NAMESPACE, pluginData: 'missing' };
        }
        // k6's require() of a k6 module returns the module's object itself (jslib's tracing instrumentation assigns
        // to it: http.get = wrapped), where esbuild's require() of an ES module returns a read-only copy.
        const cjs = args.kind === 'require-call' && !(args.path in REMOTE_MODULES);
        if (cjs) return { path: args.path, namespace: CJS_NAMESPACE };
        return { path: REMOTE_MODULES[args.path] ?? args.path, namespace: NAMESPACE };
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
    plugins: [k6Plugin(problems)],
    define: TIMER_DEFINES,
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
    code = await bundle(path, file, problems, 'esm');
  } catch (error) {
    failure(error, `could not load script ${scriptPath}`);
  }
  if (problems.length > 0) fail([...new Set(problems)].join('\n'));
  writeFileSync(file, code);
  let hostedProblem: string | undefined;
  if (options.hosted) {
    try {
      writeFileSync(hostedFile, await bundle(path, hostedFile, problems, 'iife'));
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
  return {
    path,
    dir: dirname(path),
    bundleUrl: pathToFileURL(file).href,
    hostedScriptPath: options.hosted && !hostedProblem ? hostedFile : undefined,
    hostedProblem,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
