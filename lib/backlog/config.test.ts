import { describe, expect, it } from 'vitest';
import { readApiKey } from '../common-knobs';
import { EnvError, EnvReader } from '../env';
import { readBacklogConfig } from './config';
import { SMALL_ENV } from './testdata/small-env';

function errorOf(env: Record<string, string>): EnvError {
  try {
    readBacklogConfig(env);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error('expected an EnvError');
}

describe('EnvReader', () => {
  const e = new EnvReader({ N: '12_000', F: '0.5', B: 'yes', S: '1.75GiB', BAD: 'x', BLANK: ' ' });

  it('parses each kind and falls back on unset or blank values', () => {
    expect(e.int('N', 0)).toBe(12000);
    expect(e.number('F', 0)).toBe(0.5);
    expect(e.bool('B', false)).toBe(true);
    expect(e.size('S', 0)).toBe(1879048192);
    expect(e.int('MISSING', 7)).toBe(7);
    expect(e.int('BLANK', 7)).toBe(7);
  });

  it('names the variable and what it accepts', () => {
    expect(() => e.int('BAD', 0)).toThrow('BAD: "x" is not a whole number');
    expect(() => e.int('N', 0, { max: 100 })).toThrow('N: 12000 is out of range: use a value <= 100');
    expect(() => e.bool('BAD', false)).toThrow('BAD: "x" is not a boolean: use 1 or 0');
    expect(() => e.size('BAD', 0)).toThrow('BAD: invalid size "x"');
    expect(() => e.oneOf('BAD', ['a', 'b'], 'a')).toThrow('BAD: "x" is not allowed: use one of a, b');
  });
});

describe('readBacklogConfig', () => {
  it('uses the published harness defaults against the local emulator', () => {
    const c = readBacklogConfig({});
    expect(c).toMatchObject({
      target: { kind: 'emulator', baseUrl: 'http://127.0.0.1:8787' },
      seedRows: 100000,
      maxTotalRows: 1500000,
      queryDurationS: 60,
      ltStartBytes: 536870912,
      ltCapBytes: 1879048192,
      gtStartBytes: 2254857830,
      dims: 768,
      topK: 10,
      cleanup: true,
      seed: undefined,
    });
  });

  it('accepts the smoke values with ALLOW_SMALL_THRESHOLDS=1 and scales the write batch to the window', () => {
    const c = readBacklogConfig(SMALL_ENV);
    expect(c.ltStartBytes).toBe(2 ** 20);
    // A quarter of the 3 MiB window in 3080-byte rows.
    expect(c.writeBatchRows).toBe(255);
  });

  it('refuses small thresholds without ALLOW_SMALL_THRESHOLDS, naming the variables', () => {
    const error = errorOf({ ...SMALL_ENV, ALLOW_SMALL_THRESHOLDS: '0' });
    expect(error.variable).toBe('LT_START_BYTES');
    expect(error.message).toContain('LT_START_BYTES=1 MiB, LT_CAP_BYTES=4 MiB, GT_START_BYTES=8 MiB');
    expect(error.message).toContain('ALLOW_SMALL_THRESHOLDS=1');
  });

  it.each([
    [{ LT_CAP_BYTES: '1MiB' }, 'LT_CAP_BYTES'],
    [{ GT_START_BYTES: '3MiB' }, 'GT_START_BYTES'],
    [{ SEED_ROWS: '20000' }, 'SEED_ROWS'],
    [{ MAX_TOTAL_ROWS: '3000' }, 'MAX_TOTAL_ROWS'],
    [{ WRITE_BATCH_ROWS: '1000' }, 'WRITE_BATCH_ROWS'],
    [{ DIMS: '0' }, 'DIMS'],
    [{ QUERY_RATE: 'fast' }, 'QUERY_RATE'],
    [{ NAMESPACE: 'has space' }, 'NAMESPACE'],
    [{ SEED: '-1' }, 'SEED'],
  ])('refuses %j naming %s', (override, variable) => {
    expect(errorOf({ ...SMALL_ENV, ...override }).variable).toBe(variable);
  });

  it('refuses a non-loopback target without an API key', () => {
    const error = errorOf({ TURBOPUFFER_BASE_URL: 'http://10.0.0.5:8787' });
    expect(error.variable).toBe('TURBOPUFFER_BASE_URL');
    expect(error.message).toContain('not a loopback address');
  });

  it('refuses credentials inside the base URL', () => {
    expect(errorOf({ TURBOPUFFER_BASE_URL: 'http://u:p@127.0.0.1:1' }).message).toContain('credentials');
  });

  it('targets the real service by region with a key, and keeps the key out of the config', () => {
    const env = { TURBOPUFFER_API_KEY: 'tpuf_secret', TURBOPUFFER_REGION: 'gcp-us-central1' };
    const c = readBacklogConfig(env);
    expect(c.target).toEqual({ kind: 'turbopuffer', baseUrl: 'https://gcp-us-central1.turbopuffer.com' });
    expect(JSON.stringify(c)).not.toContain('tpuf_secret');
    expect(readApiKey(env)).toBe('tpuf_secret');
  });

  it('needs a region or a base URL with a key; a loopback URL with a key is still the emulator', () => {
    expect(errorOf({ TURBOPUFFER_API_KEY: 'k' }).variable).toBe('TURBOPUFFER_REGION');
    const c = readBacklogConfig({ TURBOPUFFER_API_KEY: 'k', TURBOPUFFER_BASE_URL: 'http://localhost:9/' });
    expect(c.target).toEqual({ kind: 'emulator', baseUrl: 'http://localhost:9' });
  });
});
