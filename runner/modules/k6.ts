// The `k6` module: check, group, sleep, fail, randomSeed.
import { nowMs } from '../control-block';
import type { VuRuntime } from '../vu/runtime';

function isAsyncFunction(fn: unknown): boolean {
  return typeof fn === 'function' && fn.constructor?.name === 'AsyncFunction';
}

function tagValues(tags: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (tags && typeof tags === 'object') {
    for (const [k, v] of Object.entries(tags)) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
        throw new TypeError(`invalid tag value for "${k}": tags must be strings, numbers or booleans`);
      out[k] = String(v);
    }
  }
  return out;
}

/** mulberry32: a small seeded PRNG for randomSeed() (reproducible Math.random per VU). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createK6Module(rt: VuRuntime) {
  const checkTagOn = rt.data.systemTags.includes('check');

  function check(value: unknown, checks: Record<string, unknown>, tags?: Record<string, unknown>): boolean {
    if (rt.inInitContext()) throw new Error('check() is not supported in the init context');
    const time = nowMs();
    const base = { ...rt.tags(), ...tagValues(tags) };
    const metadata = rt.metadata();
    let all = true;
    for (const name of Object.keys(checks ?? {})) {
      if (name.includes('::')) throw new Error(`check name "${name}" must not contain "::"`);
      const cond = checks[name];
      if (isAsyncFunction(cond))
        throw new Error(`check "${name}": async functions are not supported in check()`);
      const sampleTags = checkTagOn ? { ...base, check: name } : base;
      let ok: boolean;
      try {
        ok = typeof cond === 'function' ? Boolean(cond(value)) : Boolean(cond);
      } catch (error) {
        rt.emit([{ metric: 'checks', time, value: 0, tags: sampleTags, metadata }]);
        throw error;
      }
      if (!ok) all = false;
      rt.emit([{ metric: 'checks', time, value: ok ? 1 : 0, tags: sampleTags, metadata }]);
    }
    return all;
  }

  function group<T>(name: string, fn: () => T): T {
    if (rt.inInitContext()) throw new Error('group() is not supported in the init context');
    if (name.includes('::')) throw new Error(`group name "${name}" must not contain "::"`);
    // With awaits (runner/script/hosting.ts) the async functions are the script's sync ones, compiled: their group
    // ends when they do, as it would have.
    if (isAsyncFunction(fn) && !rt.awaitsBlocking)
      throw new Error('group() does not support async functions as arguments; use a sync function');
    const previous = rt.group;
    rt.group = `${previous}::${name}`;
    rt.invalidateTags();
    const start = nowMs();
    const end = () => {
      const time = nowMs();
      rt.emit([
        { metric: 'group_duration', time, value: time - start, tags: rt.tags(), metadata: rt.metadata() },
      ]);
      rt.group = previous;
      rt.invalidateTags();
    };
    let result: T;
    try {
      result = fn();
    } catch (error) {
      end();
      throw error;
    }
    if (!result || typeof (result as { then?: unknown }).then !== 'function') {
      end();
      return result;
    }
    if (!rt.awaitsBlocking) {
      end();
      throw new Error('group() does not support async functions as arguments; use a sync function');
    }
    return (result as unknown as Promise<unknown>).finally(end) as T;
  }

  function sleep(seconds: number): void | Promise<void> {
    if (rt.inInitContext()) throw new Error('sleep() is not supported in the init context');
    const ms = Number(seconds) * 1000;
    if (rt.awaitsBlocking) return rt.waitFor(Math.max(0, ms));
    rt.throwIfInterrupted();
    if (ms > 0) rt.blockFor(ms);
  }

  function fail(message?: string): never {
    throw new Error(message ?? '');
  }

  function randomSeed(seed: number): void {
    // The script's own Math (a hosted VU's vm context has its own).
    (rt.global.Math as Math).random = seeded(Math.trunc(Number(seed)));
  }

  return { check, group, sleep, fail, randomSeed };
}
