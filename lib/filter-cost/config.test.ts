import { describe, expect, it } from 'vitest';
import { EnvError, EnvReader } from '../env';
import { readKnobs } from '../knobs';
import { configKnobs, FILTER_COST_KNOBS, readFilterCostConfig } from './config';
import { PUBLISHED_CONFIGURATIONS } from './configurations';

function errorOf(env: Record<string, string>): EnvError {
  try {
    readFilterCostConfig(env);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error('expected an EnvError');
}

describe('readFilterCostConfig', () => {
  it('defaults to the published study: 14 configurations of 1M rows, the int-10k sweep, 10 s per window', () => {
    const c = readFilterCostConfig({});
    expect(c.configurations.map((x) => x.name)).toEqual([...PUBLISHED_CONFIGURATIONS]);
    expect(c).toMatchObject({
      target: { kind: 'emulator', baseUrl: 'http://127.0.0.1:8787' },
      rows: 1_000_000,
      sweepConfiguration: 'int-10k',
      selectivities: [0.001, 0.01, 0.1, 0.5, 1],
      queryDurationS: 10,
      queryWarmupS: 2,
      load: { mode: 'arrival', rate: 20, vus: 20, maxVus: 20, workers: 2 },
      topK: 10,
      dims: 768,
      seed: undefined,
      writeBatchRows: 1000,
      ingestWarmupRows: 10_000,
      pollIntervalS: 0.25,
      recallQueries: 10,
    });
    expect(c.configurations.find((x) => x.name === 'string-100k')?.attribute).toEqual({
      type: 'string',
      cardinality: 100_000,
      filterable: true,
    });
  });

  it('runs the published closed loop with QUERY_MODE=workers (2 workers) and polls the service once a second', () => {
    expect(readFilterCostConfig({ QUERY_MODE: 'workers' }).load).toMatchObject({
      mode: 'workers',
      workers: 2,
    });
    const service = readFilterCostConfig({ TURBOPUFFER_API_KEY: 'k', TURBOPUFFER_REGION: 'gcp-us-central1' });
    expect(service.pollIntervalS).toBe(1);
  });

  it('has no sweep when CONFIGURATIONS leaves int-10k out and SWEEP_CONFIGURATION is left at its default', () => {
    expect(readFilterCostConfig({ CONFIGURATIONS: 'baseline,int-100' }).sweepConfiguration).toBeNull();
    expect(readFilterCostConfig({ SWEEP_CONFIGURATION: 'none' }).sweepConfiguration).toBeNull();
    expect(readFilterCostConfig({ SWEEP_CONFIGURATION: 'string-unique' }).sweepConfiguration).toBe(
      'string-unique',
    );
  });

  it.each([
    [{ ROWS: '50000' }, 'CONFIGURATIONS', 'int-100k: 100000 distinct values cannot fit in ROWS=50000'],
    [{ CONFIGURATIONS: 'int-100,float-2' }, 'CONFIGURATIONS', '"float-2" is not a configuration'],
    [{ CONFIGURATIONS: 'int-100,int-100' }, 'CONFIGURATIONS', 'int-100 is listed twice'],
    [{ CONFIGURATIONS: ' , ' }, 'CONFIGURATIONS', 'lists no configuration'],
    [{ SWEEP_CONFIGURATION: 'int-7' }, 'SWEEP_CONFIGURATION', 'int-7 is not in CONFIGURATIONS'],
    [{ SWEEP_CONFIGURATION: 'int-10k-unfiltered' }, 'SWEEP_CONFIGURATION', 'has no filterable attribute'],
    [{ SELECTIVITIES: '0.1,150' }, 'SELECTIVITIES', '"150" is not a percentage of rows matching'],
    [{ SELECTIVITIES: '1,1.0' }, 'SELECTIVITIES', '1.0 is listed twice'],
    [{ QUERY_DURATION_S: '0.5', QUERY_WARMUP_S: '0' }, 'QUERY_DURATION_S', 'at least 1 s'],
    [{ QUERY_MODE: 'workers', QUERY_RATE: '5' }, 'QUERY_RATE', 'has no effect with QUERY_MODE=workers'],
    [{ QUERY_WORKERS: '4' }, 'QUERY_WORKERS', 'has no effect with QUERY_MODE=arrival'],
    [{ NAMESPACE_PREFIX: 'has space' }, 'NAMESPACE_PREFIX', 'is not a namespace prefix'],
    [{ ROWS: '0' }, 'ROWS', 'out of range'],
    [{ TURBOPUFFER_BASE_URL: 'http://10.0.0.1:8787' }, 'TURBOPUFFER_BASE_URL', 'not a loopback address'],
  ])('refuses %j naming %s', (env, variable, message) => {
    const error = errorOf(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(message);
  });

  it('records every knob under its variable name, with the drawn seed and the unused mode as null', () => {
    const knobs = configKnobs(
      readFilterCostConfig({ ROWS: '50000', CONFIGURATIONS: 'baseline,int-100' }),
      99,
    );
    expect(knobs).toMatchObject({
      ROWS: 50_000,
      CONFIGURATIONS: 'baseline,int-100',
      SWEEP_CONFIGURATION: 'none',
      SELECTIVITIES: '0.1,1,10,50,100',
      QUERY_MODE: 'arrival',
      QUERY_RATE: 20,
      QUERY_WORKERS: null,
      SEED: 99,
    });
  });

  it('parses every knob of the table on its own (the table is the one list of knobs)', () => {
    const k = readKnobs(
      FILTER_COST_KNOBS,
      new EnvReader({ ROWS: '5', HELP: '1', TURBOPUFFER_API_KEY: 'secret' }),
    );
    expect(k.ROWS).toBe(5);
    expect(k.HELP).toBe(true);
    // Only whether a key was given: the key itself never enters a config.
    expect(k.TURBOPUFFER_API_KEY).toBe(true);
    for (const [name, knob] of Object.entries(FILTER_COST_KNOBS)) {
      expect(knob.meaning.length, name).toBeGreaterThan(10);
      expect(knob.default.length, name).toBeGreaterThan(0);
    }
  });
});
