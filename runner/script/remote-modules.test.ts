import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRemoteModule, ModuleCache, moduleCacheDir, remoteUrlProblem } from './remote-modules';

const dir = mkdtempSync(join(tmpdir(), 'bench-module-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('remote modules', () => {
  it('loads https: anywhere and http: only from loopback hosts', () => {
    expect(remoteUrlProblem('https://jslib.k6.io/k6-utils/1.4.0/index.js')).toBeUndefined();
    expect(remoteUrlProblem('http://127.0.0.1:8080/x.js')).toBeUndefined();
    expect(remoteUrlProblem('http://localhost/x.js')).toBeUndefined();
    expect(remoteUrlProblem('http://[::1]:9/x.js')).toBeUndefined();
    expect(remoteUrlProblem('http://example.com/x.js')).toMatch(
      /^only supported schemes for imports are file and https, http:\/\/example.com\/x.js has `http`/,
    );
    expect(remoteUrlProblem('ftp://example.com/x.js')).toMatch(/has `ftp`/);
  });

  it('caches by URL with the content by hash, and refuses a blob that does not match its hash', () => {
    const cache = new ModuleCache(join(dir, 'a'));
    expect(cache.read('https://h/x.js')).toBeUndefined();
    cache.write('https://h/x.js', 'export const x = 1;');
    expect(cache.read('https://h/x.js')).toMatchObject({
      url: 'https://h/x.js',
      text: 'export const x = 1;',
    });
    const blob = join(dir, 'a', 'blobs', `${cache.read('https://h/x.js')?.sha256}.js`);
    writeFileSync(blob, 'tampered');
    expect(cache.read('https://h/x.js')).toBeUndefined();
  });

  it('offline: serves the cache and names a URL it does not hold', async () => {
    const cache = new ModuleCache(join(dir, 'b'));
    cache.write('https://h/y.js', 'export const y = 2;');
    await expect(
      loadRemoteModule('https://h/y.js', 'https://h/y.js', { offline: true, cache }),
    ).resolves.toEqual({
      text: 'export const y = 2;',
    });
    await expect(
      loadRemoteModule('https://h/z.js', 'https://h/z.js', { offline: true, cache }),
    ).rejects.toThrow(/remote module https:\/\/h\/z.js is not in bench's module cache .* --offline/);
  });

  it('keeps its cache where BENCH_MODULE_CACHE or XDG_CACHE_HOME say', () => {
    expect(moduleCacheDir({ BENCH_MODULE_CACHE: '/c' })).toBe('/c');
    expect(moduleCacheDir({ XDG_CACHE_HOME: '/x' })).toBe('/x/bench/modules');
  });
});
