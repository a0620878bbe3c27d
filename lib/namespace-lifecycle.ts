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
export function refuseExisting(client: TurbopufferClient, namespace: string): void {
  const res = client.metadata(namespace);
  if (res.status === 404) return;
  if (res.status === 200)
    throw new Error(
      `namespace ${namespace} already exists: the experiment needs a fresh one. Choose another NAMESPACE ` +
        '(or unset it for a timestamped name); bench never writes into or deletes a namespace it did not create',
    );
  throw new Error(`cannot check namespace ${namespace}: metadata returned ${res.status} (${res.error})`);
}

/** Deletes the namespace (a 404 counts as deleted); a failure is logged, not thrown, so teardown goes on. */
export function deleteNamespace(client: TurbopufferClient, namespace: string): void {
  const res = client.deleteNamespace(namespace);
  if (res.status === 200 || res.status === 404) console.log(`deleted namespace ${namespace} (CLEANUP=1)`);
  else console.warn(`could not delete namespace ${namespace}: HTTP ${res.status}: ${res.error}`);
}

/**
 * setup()'s work on a namespace it creates: refuses an existing one, then runs `fill`. If `fill` throws, the
 * namespace is deleted first when `cleanup` is set, because teardown() does not run after a failed setup().
 */
export function fillFreshNamespace<T>(
  client: TurbopufferClient,
  namespace: string,
  cleanup: boolean,
  fill: () => T,
): T {
  refuseExisting(client, namespace);
  try {
    return fill();
  } catch (error) {
    if (cleanup) deleteNamespace(client, namespace);
    throw error;
  }
}

/** teardown(): deletes the namespace when this run created it and `cleanup` (CLEANUP) asks for it. */
export function makeTeardown(
  client: TurbopufferClient,
  cleanup: boolean,
): (data?: { namespace: string; created: boolean }) => void {
  return (data) => {
    if (data?.created && cleanup) deleteNamespace(client, data.namespace);
  };
}
