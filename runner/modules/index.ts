// Module id -> factory for one realm: the runtime side of script/k6-modules.ts (which lists the exported names).
import type { VuRuntime } from '../vu/runtime';
import { createDataModule } from './data';
import { createExecutionModule } from './execution';
import { createK6Module } from './k6';
import { createK6SummaryModule } from './k6-summary';
import { createMetricsModule, type DeclaredMetrics } from './metrics';
import { createTimersModule } from './timers';

export interface RealmModules {
  require(id: string): unknown;
  declared: DeclaredMetrics;
  sharedArraysMade: Record<string, string[]>;
  timers: ReturnType<typeof createTimersModule>;
}

type Factory = (rt: VuRuntime, ctx: RealmModules) => unknown;

const FACTORIES: Record<string, Factory> = {
  k6: (rt) => createK6Module(rt),
  'k6/metrics': (rt, ctx) => createMetricsModule(rt, ctx.declared),
  'k6/execution': (rt) => createExecutionModule(rt),
  'k6/timers': (_rt, ctx) => ctx.timers,
  'k6/data': (rt, ctx) => createDataModule(rt, ctx.sharedArraysMade),
  'jslib:k6-summary': () => createK6SummaryModule(),
};

/** Factories registered by modules built elsewhere (k6/http, k6/encoding, k6/crypto); see modules/external.ts. */
export function registerModule(id: string, factory: Factory): void {
  FACTORIES[id] = factory;
}

export function createRealmModules(rt: VuRuntime): RealmModules {
  const instances = new Map<string, unknown>();
  const ctx: RealmModules = {
    declared: new Map(),
    sharedArraysMade: {},
    timers: createTimersModule(rt),
    require(id: string): unknown {
      let m = instances.get(id);
      if (m === undefined) {
        const factory = FACTORIES[id];
        if (!factory) throw new Error(`module ${id} is not available in bench's runner`);
        m = factory(rt, ctx);
        instances.set(id, m);
      }
      return m;
    },
  };
  return ctx;
}
