// The `k6/execution` module: scenario, instance, vu and test facts and controls for the current realm.
import { IN_COMPLETED, IN_INTERRUPTED, IN_VUS_ACTIVE, IN_VUS_INITIALIZED, nowMs } from '../control-block';
import { stripeItem } from '../executors/stripe';
import { TestAbort } from '../vu/interruption';
import type { VuRuntime } from '../vu/runtime';

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

function tagProxy(rt: VuRuntime, which: 'userTags' | 'userMetadata'): Record<string, unknown> {
  return new Proxy({} as Record<string, unknown>, {
    get: (_t, p) => (typeof p === 'string' ? rt[which][p] : undefined),
    set: (_t, p, v) => {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
        throw new TypeError(
          `invalid value for metric ${which === 'userTags' ? 'tag' : 'metadata'} "${String(p)}": use a string, number or boolean`,
        );
      rt[which][String(p)] = String(v);
      rt.invalidateTags();
      return true;
    },
    deleteProperty: (_t, p) => {
      delete rt[which][String(p)];
      rt.invalidateTags();
      return true;
    },
    ownKeys: () => Reflect.ownKeys(rt[which]),
    getOwnPropertyDescriptor: (_t, p) =>
      typeof p === 'string' && p in rt[which]
        ? { value: rt[which][p], enumerable: true, configurable: true, writable: true }
        : undefined,
  });
}

export function createExecutionModule(rt: VuRuntime) {
  const instanceBlock = rt.data.instance;
  const vuIds = rt.data.vuIds;
  const needScenario = () => {
    if (rt.inInitContext())
      throw new Error('getting scenario information outside of the VU context is not supported');
    const s = rt.scenario;
    if (!s) throw new Error('getting scenario information outside of the VU context is not supported');
    return s;
  };
  const needVu = () => {
    if (rt.inInitContext() || rt.vuId === 0)
      throw new Error('getting VU information outside of the VU context is not supported');
  };
  const needInstance = () => {
    if (rt.inInitContext())
      throw new Error('getting instance information in the init context is not supported');
  };

  const scenario = {
    get name() {
      return needScenario().name;
    },
    get executor() {
      return needScenario().executor;
    },
    get startTime() {
      return needScenario().startTime;
    },
    get progress() {
      const s = needScenario();
      return s.duration > 0 ? Math.min(1, Math.max(0, (nowMs() - s.startTime) / s.duration)) : 0;
    },
    get iterationInInstance() {
      needScenario();
      return rt.iterationInInstance;
    },
    get iterationInTest() {
      needScenario();
      return rt.iterationInTest;
    },
  };

  const instance = {
    get iterationsCompleted() {
      needInstance();
      return Atomics.load(instanceBlock, IN_COMPLETED);
    },
    get iterationsInterrupted() {
      needInstance();
      return Atomics.load(instanceBlock, IN_INTERRUPTED);
    },
    get vusActive() {
      needInstance();
      return Atomics.load(instanceBlock, IN_VUS_ACTIVE);
    },
    get vusInitialized() {
      needInstance();
      return Atomics.load(instanceBlock, IN_VUS_INITIALIZED);
    },
    get currentTestRunDuration() {
      needInstance();
      return nowMs() - rt.data.testStart;
    },
  };

  const metrics = { tags: tagProxy(rt, 'userTags'), metadata: tagProxy(rt, 'userMetadata') };
  const vu = {
    get idInInstance() {
      needVu();
      return rt.vuId;
    },
    get idInTest() {
      needVu();
      return vuIds ? stripeItem(vuIds, rt.vuId - 1) + 1 : rt.vuId;
    },
    get iterationInInstance() {
      needVu();
      return rt.iteration;
    },
    get iterationInScenario() {
      needVu();
      return rt.iterationInScenario;
    },
    metrics,
    tags: metrics.tags,
  };

  const options = deepFreeze(structuredClone(rt.data.testOptions));
  const test = {
    abort(message?: string): never {
      if (rt.inInitContext() && rt.data.mode !== 'init0') throw new TestAbort(message ?? '');
      throw new TestAbort(message ?? '');
    },
    fail(message?: string): void {
      const msg = message ?? '';
      rt.log('error', `test marked as failed${msg ? `: ${msg}` : ''}`);
      rt.post({ type: 'testFail', message: msg });
    },
    get options() {
      return options;
    },
  };

  const exec = { scenario, instance, vu, test };
  return { ...exec, default: exec };
}
