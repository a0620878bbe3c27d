// Module id -> factory for one realm: the runtime side of script/k6-modules.ts (which lists the exported names).

import * as webStreams from 'node:stream/web';
import { LIVE_KEY, LIVE_MODULES } from '../script/k6-modules';
import type { VuRuntime } from '../vu/runtime';
import { createBrowserModule } from './browser';
import { createDataModule } from './data';
import { createExecutionModule } from './execution';
import { createCsvModule, createFsModule } from './fs';
import { createGrpcModule } from './grpc';
import { createK6Module } from './k6';
import { createK6SummaryModule } from './k6-summary';
import { createMetricsModule, type DeclaredMetrics } from './metrics';
import { createTimersModule } from './timers';
import { createWebSocketsModule } from './websockets';
import { createWsModule } from './ws';

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
  'k6/websockets': (rt) => createWebSocketsModule(rt, false),
  'k6/ws': (rt) => createWsModule(rt),
  'k6/net/grpc': (rt) => createGrpcModule(rt),
  'k6/browser': (rt) => createBrowserModule(rt),
  'k6/experimental/fs': (rt) => createFsModule(rt),
  'k6/experimental/csv': (rt) => createCsvModule(rt),
  // The WHATWG streams k6 implements are the ones Node ships.
  'k6/experimental/streams': () => {
    const members = {
      ReadableStream: webStreams.ReadableStream,
      ReadableStreamDefaultReader: webStreams.ReadableStreamDefaultReader,
      CountQueuingStrategy: webStreams.CountQueuingStrategy,
      WritableStream: webStreams.WritableStream,
      WritableStreamDefaultWriter: webStreams.WritableStreamDefaultWriter,
    };
    return { ...members, default: members };
  },
  'k6/experimental/websockets': (rt) => createWebSocketsModule(rt, true),
};

/** Factories registered by modules built elsewhere (k6/http, k6/encoding, k6/crypto); see modules/external.ts. */
export function registerModule(id: string, factory: Factory): void {
  FACTORIES[id] = factory;
}

/**
 * Turns a module object's members into accessors whose assignments reach the script's named imports of them
 * (runner/script/k6-modules.ts LIVE_MODULES): the bundle's virtual module registers a listener that rebinds them.
 */
function makeLive(m: Record<string, unknown>): void {
  const listeners: Array<(key: string, value: unknown) => void> = [];
  for (const key of Object.keys(m)) {
    if (key === 'default') continue;
    let value = m[key];
    Object.defineProperty(m, key, {
      get: () => value,
      set: (v: unknown) => {
        value = v;
        for (const listener of listeners) listener(key, v);
      },
      enumerable: true,
      configurable: true,
    });
  }
  Object.defineProperty(m, Symbol.for(LIVE_KEY), {
    value: (listener: (key: string, value: unknown) => void) => listeners.push(listener),
  });
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
        if (LIVE_MODULES.has(id)) makeLive(m as Record<string, unknown>);
        instances.set(id, m);
      }
      return m;
    },
  };
  return ctx;
}
