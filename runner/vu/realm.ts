// Builds a realm: the globals k6 scripts see (__ENV, __VU, __ITER, open, require, console, timers) and the module
// table behind the bundle's `k6` imports, then evaluates the script (its init code).
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Context, createContext, runInContext, type Script } from 'node:vm';
import { createRealmModules, type RealmModules } from '../modules/index';
import { crossRealmCrypto } from '../modules/webcrypto';
import {
  HOSTED_EXPORTS,
  HOSTED_WEB_GLOBALS,
  IMPORT_META_RESOLVE_GLOBAL,
  TIMERS_GLOBAL,
} from '../script/k6-modules';
import { THROWN_GLOBAL } from '../script/thrown-values';
import { formatConsoleArgs } from './console-format';
import type { VuRuntime } from './runtime';
import { noteThrown } from './script-stack';

export interface Realm {
  module: Record<string, unknown>;
  modules: RealmModules;
  env: Record<string, string>;
}

function installGlobals(rt: VuRuntime, modules: RealmModules, env: Record<string, string>): void {
  const g = rt.global as Record<string | symbol, unknown>;
  g[Symbol.for('bench.k6.require')] = (id: string) => modules.require(id);
  g.__ENV = env;
  g.__VU = rt.vuId;
  // Read from the runtime rather than written per iteration: a write to a vm context's global goes through its
  // interceptors, and it was among the top self-time entries of a hosted VU's CPU profile.
  Object.defineProperty(g, '__ITER', { get: () => Math.max(0, rt.iteration), configurable: true });
  g.global = g;
  Object.defineProperty(g, THROWN_GLOBAL, { value: noteThrown });
  const log =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) =>
      rt.log(level, formatConsoleArgs(args), { source: 'console' });
  g.console = {
    log: log('info'),
    info: log('info'),
    debug: log('debug'),
    warn: log('warn'),
    error: log('error'),
  };
  // The bundle reads its timer globals from here (runner/script/bundle.ts); the thread's own stay Node's.
  const { setTimeout, clearTimeout, setInterval, clearInterval } = modules.timers;
  Object.defineProperty(g, TIMERS_GLOBAL, {
    value: { setTimeout, clearTimeout, setInterval, clearInterval },
  });
  Object.defineProperty(g, IMPORT_META_RESOLVE_GLOBAL, {
    value: (path: unknown) => {
      const text = String(path);
      if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return text;
      return pathToFileURL(resolve(rt.data.scriptDir, text)).href;
    },
  });
  g.open = (path: string, mode?: string) => {
    if (!rt.inInitContext()) throw new Error('The "open()" function is only available in the init stage');
    if (typeof path !== 'string' || path === '') throw new Error('open() needs a file name');
    const full = path.startsWith('file:') ? fileURLToPath(path) : resolve(rt.data.scriptDir, path);
    if (statSync(full, { throwIfNoEntry: false })?.isDirectory())
      throw new Error(`open() can't be used with directories, path: "${path}"`);
    const bytes = readFileSync(full);
    if (mode === 'b') return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    return bytes.toString('utf8');
  };
  g.require = (id: string) => {
    if (!rt.inInitContext()) throw new Error('require() is only available in the init stage');
    return modules.require(id);
  };
}

/** A fresh vm context for one hosted VU (runner/vu-host.worker.ts) and the global object its code sees. */
export function newHostedContext(vuId: number): { context: Context; global: Record<string, unknown> } {
  const context = createContext({}, { name: `VU ${vuId}` });
  const global = runInContext('globalThis', context) as Record<string, unknown>;
  const host = globalThis as unknown as Record<string, unknown>;
  for (const name of HOSTED_WEB_GLOBALS) global[name] = host[name];
  global.crypto = crossRealmCrypto();
  return { context, global };
}

/**
 * Evaluates the script (compiled once per host thread as a classic script, runner/script/bundle.ts) in a hosted VU's
 * context: its own module instance and globals, beside other VUs on the same thread.
 */
export function createHostedRealm(rt: VuRuntime, script: Script, context: Context): Realm {
  const modules = createRealmModules(rt);
  const env = { ...rt.data.env };
  installGlobals(rt, modules, env);
  const g = rt.global;
  script.runInContext(context);
  const module = g[HOSTED_EXPORTS] as Record<string, unknown>;
  // A script-level `var`: it cannot be deleted, only emptied.
  g[HOSTED_EXPORTS] = undefined;
  rt.initContext = false;
  return { module, modules, env };
}

/** Evaluates the bundle in this thread (each worker thread has its own module instance and globals). */
export async function createRealm(rt: VuRuntime): Promise<Realm> {
  const modules = createRealmModules(rt);
  const env = { ...rt.data.env };
  installGlobals(rt, modules, env);
  const module = (await import(rt.data.bundleUrl)) as Record<string, unknown>;
  rt.initContext = false;
  return { module, modules, env };
}
