// Loads a k6 script for the runner: one esbuild pass (for .ts and .js alike) that maps `k6`/`k6/*` and the
// built-in jslib URLs to the runner's modules and refuses anything unsupported before any JS runs (exit 107).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { BenchError } from '../errors';
import { EXIT_SCRIPT_EXCEPTION } from '../exit-codes';
import { REMOTE_MODULES, unsupportedReason, virtualModuleSource } from './k6-modules';

export interface LoadedScript {
  /** Absolute path of the entry script. */
  path: string;
  /** Directory open() resolves relative paths against. */
  dir: string;
  /** file: URL of the bundled ES module every realm imports. */
  bundleUrl: string;
  /** Removes the temporary bundle. */
  dispose(): void;
}

const NAMESPACE = 'bench-k6';

function k6Plugin(problems: string[]): esbuild.Plugin {
  return {
    name: 'bench-k6-modules',
    setup(build) {
      build.onResolve({ filter: /^(k6(\/.*)?|https?:\/\/.*)$/ }, (args) => {
        const reason = unsupportedReason(args.path);
        if (reason) {
          problems.push(reason);
          return { path: args.path, namespace: NAMESPACE, pluginData: 'missing' };
        }
        return { path: REMOTE_MODULES[args.path] ?? args.path, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: args.pluginData === 'missing' ? 'export default {};' : virtualModuleSource(args.path),
        loader: 'js',
      }));
    },
  };
}

export async function loadScript(scriptPath: string): Promise<LoadedScript> {
  const path = resolve(scriptPath);
  const problems: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bench-run-'));
  const file = join(dir, `${basename(path).replace(/\.[cm]?[jt]s$/, '')}.mjs`);
  const fail = (message: string): never => {
    rmSync(dir, { recursive: true, force: true });
    throw new BenchError(message, EXIT_SCRIPT_EXCEPTION);
  };
  let code = '';
  try {
    const result = await esbuild.build({
      entryPoints: [path],
      // The bundle's eventual location, so source map paths resolve back to the original files in stack traces.
      outfile: file,
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      sourcemap: 'inline',
      logLevel: 'silent',
      plugins: [k6Plugin(problems)],
    });
    code = result.outputFiles[0].text;
  } catch (error) {
    if (problems.length > 0) fail(problems.join('\n'));
    const failure = error as esbuild.BuildFailure;
    const messages = failure.errors?.map((e) =>
      e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ${e.text}` : e.text,
    );
    fail(`could not load script ${scriptPath}: ${messages?.join('; ') ?? String(error)}`);
  }
  if (problems.length > 0) fail([...new Set(problems)].join('\n'));
  writeFileSync(file, code);
  return {
    path,
    dir: dirname(path),
    bundleUrl: pathToFileURL(file).href,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
