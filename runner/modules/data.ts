// The `k6/data` module: SharedArray, built once per process (by init #0) and handed to every realm as JSON; each
// element access parses a fresh copy, as k6 does.
import type { VuRuntime } from '../vu/runtime';

export function createDataModule(rt: VuRuntime, made: Record<string, string[]>) {
  class SharedArray {
    constructor(name: string, fn: () => unknown[]) {
      if (!rt.inInitContext()) throw new Error('new SharedArray must be called in the init context');
      if (typeof name !== 'string' || name === '')
        throw new Error("empty name provided to SharedArray's constructor");
      if (typeof fn !== 'function')
        throw new Error('a function is expected as the second argument of SharedArray');
      let items = rt.data.sharedArrays[name] ?? made[name];
      if (!items) {
        const result = fn();
        if (result && typeof (result as { then?: unknown }).then === 'function')
          throw new Error('SharedArray: the function must be synchronous and return an array');
        if (!Array.isArray(result)) throw new Error('SharedArray: the function must return an array');
        items = result.map((v) => JSON.stringify(v) ?? 'null');
        made[name] = items;
      }
      const elements = items;
      const at = (i: number) => (i >= 0 && i < elements.length ? JSON.parse(elements[i]) : undefined);
      const target = { length: elements.length };
      // biome-ignore lint/correctness/noConstructorReturn: k6's SharedArray is array-like; a Proxy gives index access.
      return new Proxy(target, {
        get(_t, prop) {
          if (prop === 'length') return elements.length;
          if (prop === Symbol.iterator)
            return function* () {
              for (let i = 0; i < elements.length; i++) yield at(i);
            };
          if (typeof prop === 'string' && /^\d+$/.test(prop)) return at(Number(prop));
          const arrayMethod = (Array.prototype as unknown as Record<string | symbol, unknown>)[prop];
          if (typeof arrayMethod === 'function')
            return (...args: unknown[]) =>
              (arrayMethod as (...a: unknown[]) => unknown).apply(
                Array.from({ length: elements.length }, (_, i) => at(i)),
                args,
              );
          return undefined;
        },
        set() {
          throw new TypeError('SharedArray is read-only');
        },
        has(_t, prop) {
          return (
            prop === 'length' ||
            (typeof prop === 'string' && /^\d+$/.test(prop) && Number(prop) < elements.length)
          );
        },
      }) as unknown as SharedArray;
    }
  }
  return { SharedArray };
}
