// A namespace an experiment owns: refused if it already exists (bench never writes into or deletes a namespace it
// did not create), named with a compact UTC timestamp, and deleted at the end when CLEANUP asks for it (also when
// setup() fails part-way).
import type { TurbopufferClient } from './turbopuffer-client';

/** 20260102T030405Z */
export function compactTimestamp(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/** Throws unless metadata says the namespace does not exist (404). */
function refuseExisting(client: TurbopufferClient, namespace: string): void {
  const res = client.existenceProbe(namespace);
  if (res.status === 404) return;
  if (res.status === 200)
    throw new Error(
      `namespace ${namespace} already exists: the experiment needs a fresh one. Choose another NAMESPACE ` +
        '(or unset it for a timestamped name); bench never writes into or deletes a namespace it did not create',
    );
  throw new Error(`cannot check namespace ${namespace}: metadata returned ${res.status} (${res.error})`);
}

/** Deletes the namespace (a 404 counts as deleted); a failure is logged, not thrown, so teardown goes on. */
export function deleteNamespace(client: TurbopufferClient, namespace: string, why = 'CLEANUP=1'): void {
  const res = client.deleteNamespace(namespace);
  if (res.status === 200 || res.status === 404) console.log(`deleted namespace ${namespace} (${why})`);
  else console.warn(`could not delete namespace ${namespace}: HTTP ${res.status}: ${res.error}`);
}

/**
 * setup()'s work on namespaces it creates: refuses any that exists (before anything is written), then runs `fill`,
 * which adds each namespace to `created` before its first write. If `fill` throws, the namespaces created so far are
 * deleted first when `cleanup` is set, because teardown() does not run after a failed setup().
 */
export function fillFreshNamespaces<T>(
  client: TurbopufferClient,
  namespaces: readonly string[],
  cleanup: boolean,
  fill: (created: string[]) => T,
): T {
  for (const ns of namespaces) refuseExisting(client, ns);
  const created: string[] = [];
  try {
    return fill(created);
  } catch (error) {
    // Also where a Ctrl+C lands: bench interrupts setup() with an error it may catch once (runner/README.md).
    if (cleanup) for (const ns of created) deleteNamespace(client, ns, 'setup() did not finish');
    throw error;
  }
}

/** fillFreshNamespaces for one namespace, created as `fill` starts. */
export function fillFreshNamespace<T>(
  client: TurbopufferClient,
  namespace: string,
  cleanup: boolean,
  fill: () => T,
): T {
  return fillFreshNamespaces(client, [namespace], cleanup, (created) => {
    created.push(namespace);
    return fill();
  });
}

/** teardown(): deletes the namespaces this run created when `cleanup` (CLEANUP) asks for it. */
export function makeTeardown(
  client: TurbopufferClient,
  cleanup: boolean,
): (data?: { created: string[] }) => void {
  return (data) => {
    if (cleanup) for (const ns of data?.created ?? []) deleteNamespace(client, ns);
  };
}
