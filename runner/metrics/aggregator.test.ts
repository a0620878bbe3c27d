import { describe, expect, it } from 'vitest';
import { Aggregator, type SampleOutput } from './aggregator';
import { MetricRegistry } from './registry';
import { type SampleBatch, SampleBatchEncoder } from './sample-batch';
import type { TrendSink } from './sinks';

function setup(outputs: SampleOutput[] = []) {
  const registry = new MetricRegistry();
  const aggregator = new Aggregator(registry, outputs);
  const batches: SampleBatch[] = [];
  const encoder = new SampleBatchEncoder((b) => batches.push(b));
  const flush = (source = 'vu1') => {
    encoder.flush();
    for (const b of batches.splice(0)) aggregator.ingest(source, b);
  };
  return { registry, aggregator, encoder, flush };
}

describe('Aggregator', () => {
  it('feeds the metric and every sub-metric whose tags are a subset of the sample tags', () => {
    const { registry, encoder, flush } = setup();
    const duration = registry.get('http_req_duration');
    if (!duration) throw new Error('built-in missing');
    const strong = registry.addSubmetric(duration, 'http_req_duration{phase:idle,consistency:strong}', {
      phase: 'idle',
      consistency: 'strong',
    });
    const idle = registry.addSubmetric(duration, 'http_req_duration{phase:idle}', { phase: 'idle' });
    encoder.addAll([
      {
        metric: 'http_req_duration',
        time: 1,
        value: 10,
        tags: { phase: 'idle', consistency: 'strong', status: '200' },
      },
      { metric: 'http_req_duration', time: 2, value: 20, tags: { phase: 'idle', consistency: 'eventual' } },
      { metric: 'http_req_duration', time: 3, value: 30, tags: { phase: 'busy', consistency: 'strong' } },
    ]);
    flush();
    expect(duration.sink.samples).toBe(3);
    expect((strong.sink as TrendSink).avg).toBe(10);
    expect((idle.sink as TrendSink).avg).toBe(15);
  });

  it('defines custom metrics sent by a realm and keeps realms apart', () => {
    const { registry, aggregator, encoder, flush } = setup();
    encoder.define('my_trend', 'trend', 'time');
    encoder.add({ metric: 'my_trend', time: 1, value: 5, tags: {} });
    flush('vu1');
    const other = new SampleBatchEncoder((b) => aggregator.ingest('vu2', b));
    other.add({ metric: 'iterations', time: 1, value: 1, tags: { scenario: 'x' } });
    other.add({ metric: 'my_trend', time: 1, value: 7, tags: {} });
    other.flush();
    expect(registry.get('my_trend')).toMatchObject({ type: 'trend', contains: 'time' });
    const trend = registry.get('my_trend');
    expect(trend && (trend.sink as TrendSink).avg).toBe(6);
    expect(registry.get('iterations')?.sink.samples).toBe(1);
  });

  it('builds the check tree per group in order of first appearance, parents first', () => {
    const { aggregator, encoder, flush } = setup();
    encoder.addAll([
      { metric: 'checks', time: 1, value: 1, tags: { group: '::a::b', check: 'ok' } },
      { metric: 'checks', time: 1, value: 0, tags: { group: '::a::b', check: 'ok' } },
      { metric: 'checks', time: 1, value: 1, tags: { group: '', check: 'top' } },
      { metric: 'group_duration', time: 1, value: 3, tags: { group: '::c' } },
    ]);
    flush();
    expect(aggregator.groups).toEqual(['', '::a', '::a::b', '::c']);
    expect([...(aggregator.checks.get('::a::b')?.values() ?? [])]).toEqual([
      { name: 'ok', passes: 1, fails: 1 },
    ]);
    expect([...(aggregator.checks.get('')?.values() ?? [])]).toEqual([{ name: 'top', passes: 1, fails: 0 }]);
  });

  it('hands every sample to the outputs with its tags and metadata', () => {
    const seen: Array<[string, number, Record<string, string>, Record<string, string> | undefined]> = [];
    const { encoder, flush } = setup([
      { write: (m, _t, v, s, meta) => seen.push([m.name, v, s.tags, meta]) },
    ]);
    encoder.add({ metric: 'iterations', time: 1, value: 1, tags: { a: '1' }, metadata: { vu: '3' } });
    encoder.add({ metric: 'iterations', time: 2, value: 1, tags: { a: '1' } });
    flush();
    expect(seen).toEqual([
      ['iterations', 1, { a: '1' }, { vu: '3' }],
      ['iterations', 1, { a: '1' }, undefined],
    ]);
  });
});
