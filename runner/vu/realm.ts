// Builds a realm: the globals k6 scripts see (__ENV, __VU, __ITER, open, require, console, timers) and the module
// table behind the bundle's `k6` imports, then evaluates the script (its init code).
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRealmModules, type RealmModules } from '../modules/index';
import { formatConsoleArgs } from './console-format';
import type { VuRuntime } from './runtime';

export interface Realm {
  module: Record<string, unknown>;
  modules: RealmModules;
  env: Record<string, string>;
}

function installGlobals(rt: VuRuntime, modules: RealmModules, env: Record<string, string>): void {
  const g = globalThis as Record<string | symbol, unknown>;
  g[Symbol.for('bench.k6.require')] = (id: string) => modules.require(id);
  g.__ENV = env;
  g.__VU = rt.vuId;
  g.__ITER = 0;
  g.global = globalThis;
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
  const timers = modules.timers;
  g.setTimeout = timers.setTimeout;
  g.clearTimeout = timers.clearTimeout;
  g.setInterval = timers.setInterval;
  g.clearInterval = timers.clearInterval;
  g.open = (path: string, mode?: string) => {
    if (!rt.inInitContext()) throw new Error('The "open()" function is only available in the init stage');
    if (typeof path !== 'string' || path === '') throw new Error('open() needs a file name');
    const full = resolve(rt.data.scriptDir, path);
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

/** Evaluates the bundle in this thread (each worker thread has its own module instance and globals). */
export async function createRealm(rt: VuRuntime): Promise<Realm> {
  const modules = createRealmModules(rt);
  const env = { ...rt.data.env };
  installGlobals(rt, modules, env);
  const module = (await import(rt.data.bundleUrl)) as Record<string, unknown>;
  rt.initContext = false;
  return { module, modules, env };
}
