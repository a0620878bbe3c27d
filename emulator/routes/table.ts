// Every route the emulator serves: method, path pattern, handler. The only list of endpoints.
import type { Handler } from './context';
import {
  emulatorSettingsRoute,
  emulatorStatsRoute,
  hintCacheWarmRoute,
  purgeCacheRoute,
  recallRoute,
  warmCacheRoute,
} from './debug';
import { metadataRoute, patchMetadataRoute } from './metadata';
import { deleteRoute, listRoute } from './namespaces';
import { pollOperationRoute, startAsyncRoute } from './operations';
import { explainRoute, queryRoute } from './query';
import { getSchemaRoute, updateSchemaRoute } from './schema';
import { writeRoute } from './write';

interface Route {
  method: string;
  /** Segments; ":ns" captures the namespace name. */
  path: string;
  handler: Handler;
}

const ROUTES: readonly Route[] = [
  { method: 'POST', path: '/v2/namespaces/:ns', handler: writeRoute },
  { method: 'DELETE', path: '/v2/namespaces/:ns', handler: deleteRoute },
  { method: 'POST', path: '/v2/namespaces/:ns/async', handler: startAsyncRoute },
  { method: 'GET', path: '/v1/namespaces/:ns/operations/:token', handler: pollOperationRoute },
  { method: 'POST', path: '/v2/namespaces/:ns/query', handler: queryRoute },
  { method: 'POST', path: '/v2/namespaces/:ns/explain_query', handler: explainRoute },
  { method: 'GET', path: '/v2/namespaces/:ns/metadata', handler: metadataRoute },
  { method: 'GET', path: '/v1/namespaces/:ns/metadata', handler: metadataRoute },
  { method: 'PATCH', path: '/v1/namespaces/:ns/metadata', handler: patchMetadataRoute },
  { method: 'GET', path: '/v1/namespaces', handler: listRoute },
  { method: 'GET', path: '/v1/namespaces/:ns/schema', handler: getSchemaRoute },
  { method: 'POST', path: '/v1/namespaces/:ns/schema', handler: updateSchemaRoute },
  { method: 'GET', path: '/v1/namespaces/:ns/hint_cache_warm', handler: hintCacheWarmRoute },
  { method: 'POST', path: '/v1/namespaces/:ns/_debug/recall', handler: recallRoute },
  // The official benchmark calls these with GET; other methods are tolerated.
  { method: '*', path: '/v1/namespaces/:ns/_debug/warm_cache', handler: warmCacheRoute },
  { method: '*', path: '/v1/namespaces/:ns/_debug/purge_cache', handler: purgeCacheRoute },
  // Emulator-only: process memory and event-loop delay for benchmarks/bench-emulator.ts.
  { method: 'GET', path: '/_emulator/stats', handler: emulatorStatsRoute },
  // Emulator-only: version and settings, recorded in every result's target (lib/emulator-info.ts).
  { method: 'GET', path: '/_emulator/settings', handler: emulatorSettingsRoute },
];

export interface Match {
  route: Route;
  params: Record<string, string>;
}

/** The route for a method and path; `allowed` lists methods when only the method is wrong. */
export function matchRoute(method: string, pathname: string): Match | { allowed: string[] } | null {
  const parts = pathname.split('/').filter((p, i) => i === 0 || p !== '');
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const pattern = route.path.split('/');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      if (pattern[i].startsWith(':')) {
        try {
          params[pattern[i].slice(1)] = decodeURIComponent(parts[i]);
        } catch {
          ok = false;
        }
      } else ok = pattern[i] === parts[i];
    }
    if (!ok) continue;
    if (route.method === '*' || route.method === method) return { route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { allowed } : null;
}
