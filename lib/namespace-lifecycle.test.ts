import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  compactTimestamp,
  fillFreshNamespace,
  fillFreshNamespaces,
  makeTeardown,
} from './namespace-lifecycle';
import type { TurbopufferClient } from './turbopuffer-client';

/** A client whose metadata answers `metadataStatus` and which records deletions. */
function fakeClient(metadataStatus: number) {
  const deleted: string[] = [];
  const client = {
    existenceProbe: () => ({ status: metadataStatus }),
    deleteNamespace: (ns: string) => {
      deleted.push(ns);
      return { status: 200 };
    },
  } as unknown as TurbopufferClient; // only the two calls the lifecycle makes
  return { client, deleted };
}

describe('namespace lifecycle', () => {
  afterEach(() => vi.restoreAllMocks());

  it('names with a compact UTC timestamp', () => {
    expect(compactTimestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 678))).toBe('20260102T030405Z');
  });

  it('refuses an existing namespace before filling it, and deletes nothing', () => {
    const { client, deleted } = fakeClient(200);
    const fill = vi.fn();
    expect(() => fillFreshNamespace(client, 'ns', true, fill)).toThrow('namespace ns already exists');
    expect(fill).not.toHaveBeenCalled();
    expect(deleted).toEqual([]);
  });

  it('deletes a namespace whose filling failed when cleanup is on, and rethrows', () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    for (const cleanup of [true, false]) {
      const { client, deleted } = fakeClient(404);
      expect(() =>
        fillFreshNamespace(client, 'ns', cleanup, () => {
          throw new Error('seeding failed');
        }),
      ).toThrow('seeding failed');
      expect(deleted).toEqual(cleanup ? ['ns'] : []);
    }
    expect(fillFreshNamespace(fakeClient(404).client, 'ns', true, () => 7)).toBe(7);
  });

  it('refuses every namespace of a study before the first write, and deletes only those created', () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { client, deleted } = fakeClient(404);
    expect(() =>
      fillFreshNamespaces(client, ['a', 'b', 'c'], true, (created) => {
        created.push('a', 'b');
        throw new Error('ingest of b failed');
      }),
    ).toThrow('ingest of b failed');
    expect(deleted).toEqual(['a', 'b']);
    const existing = fakeClient(200);
    const fill = vi.fn();
    expect(() => fillFreshNamespaces(existing.client, ['a', 'b'], true, fill)).toThrow(
      'namespace a already exists',
    );
    expect(fill).not.toHaveBeenCalled();
  });

  it('tears down only a namespace this run created, and only with cleanup', () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { client, deleted } = fakeClient(404);
    makeTeardown(client, true)({ created: ['a', 'b'] });
    makeTeardown(client, true)({ created: [] });
    makeTeardown(client, false)({ created: ['c'] });
    makeTeardown(client, true)(undefined);
    expect(deleted).toEqual(['a', 'b']);
  });
});
