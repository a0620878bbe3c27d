import { describe, expect, it } from 'vitest';
import {
  drawSeed,
  isLoopback,
  queryLoadKnobs,
  readDims,
  readResultsDir,
  readTopK,
  resolveQueryLoad,
} from './common-knobs';
import { EnvReader } from './env';
import { readKnobs } from './knobs';

const DEFAULTS = { rate: 20, workers: 2 };
const load = (env: Record<string, string>) =>
  resolveQueryLoad(readKnobs(queryLoadKnobs(DEFAULTS), new EnvReader(env)), DEFAULTS);

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
    expect(load({})).toEqual({ mode: 'arrival', rate: 20, vus: 20, maxVus: 20, workers: 2 });
    expect([load({ QUERY_RATE: '0.5' }).vus, load({ QUERY_RATE: '12.5' }).vus]).toEqual([2, 13]);
    expect(load({ QUERY_VUS: '13' }).maxVus).toBe(13);
    expect(() => load({ QUERY_VUS: '20', QUERY_MAX_VUS: '10' })).toThrow(
      'QUERY_MAX_VUS: 10 is below QUERY_VUS=20',
    );
  });

  it("runs closed-loop workers with QUERY_MODE=workers and refuses the other mode's knobs", () => {
    expect(load({ QUERY_MODE: 'workers' })).toMatchObject({ mode: 'workers', workers: 2 });
    expect(load({ QUERY_MODE: 'workers', QUERY_WORKERS: '8' }).workers).toBe(8);
    expect(() => load({ QUERY_MODE: 'workers', QUERY_RATE: '10' })).toThrow(
      'QUERY_RATE: has no effect with QUERY_MODE=workers',
    );
    expect(() => load({ QUERY_WORKERS: '4' })).toThrow(
      'QUERY_WORKERS: has no effect with QUERY_MODE=arrival',
    );
    expect(() => load({ QUERY_MODE: 'closed' })).toThrow(
      'QUERY_MODE: "closed" is not allowed: use one of arrival, workers',
    );
  });

  it('drops trailing slashes from RESULTS_DIR', () => {
    expect(readResultsDir(new EnvReader({ RESULTS_DIR: 'results/scratch//' }))).toBe('results/scratch');
    expect(readResultsDir(new EnvReader({}))).toBe('runs');
  });
});
