import { describe, expect, it } from 'vitest';
import {
  checkQueryMaxVus,
  drawSeed,
  isLoopback,
  readDims,
  readQueryMaxVus,
  readQueryVus,
  readResultsDir,
  readTopK,
} from './common-knobs';
import { EnvReader } from './env';

describe('isLoopback', () => {
  it.each([
    ['http://127.0.0.1:8787', true],
    ['http://127.1.2.3', true],
    ['http://localhost:1', true],
    ['http://[::1]:8787', true],
    ['http://127.0.0.1.example.com', false],
    ['http://128.0.0.1', false],
    ['https://gcp-us-central1.turbopuffer.com', false],
  ])('%s -> %s', (url, expected) => {
    expect(isLoopback(url)).toBe(expected);
  });
});

describe('drawSeed', () => {
  it('keeps a given SEED (0 included) and otherwise draws a 32-bit unsigned integer', () => {
    expect(drawSeed(42)).toBe(42);
    expect(drawSeed(0)).toBe(0);
    const drawn = drawSeed();
    expect(Number.isInteger(drawn) && drawn >= 0 && drawn < 2 ** 32).toBe(true);
  });
});

describe('shared size and load knobs', () => {
  it("keeps DIMS and TOP_K within turbopuffer's limits, naming the variable", () => {
    expect(readDims(new EnvReader({}))).toBe(768);
    expect(readDims(new EnvReader({ DIMS: '10752' }))).toBe(10752);
    expect(() => readDims(new EnvReader({ DIMS: '10753' }))).toThrow('DIMS: 10753 is out of range');
    expect(() => readTopK(new EnvReader({ TOP_K: '10001' }))).toThrow('TOP_K: 10001 is out of range');
  });

  it('defaults QUERY_VUS to one per query/s (at least 2) and QUERY_MAX_VUS to QUERY_VUS, refusing less', () => {
    const e = new EnvReader({});
    expect([readQueryVus(e, 0.5), readQueryVus(e, 20), readQueryVus(e, 12.5)]).toEqual([2, 20, 13]);
    expect(readQueryMaxVus(e, 13)).toBe(13);
    expect(() => checkQueryMaxVus({ queryVus: 20, queryMaxVus: 10 })).toThrow(
      'QUERY_MAX_VUS: 10 is below QUERY_VUS=20',
    );
  });

  it('drops trailing slashes from RESULTS_DIR', () => {
    expect(readResultsDir(new EnvReader({ RESULTS_DIR: 'results/scratch//' }))).toBe('results/scratch');
    expect(readResultsDir(new EnvReader({}))).toBe('results');
  });
});
