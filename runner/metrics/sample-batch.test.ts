import { describe, expect, it } from 'vitest';
import { type SampleBatch, SampleBatchEncoder } from './sample-batch';

function encoder(): { enc: SampleBatchEncoder; batches: SampleBatch[] } {
  const batches: SampleBatch[] = [];
  return { enc: new SampleBatchEncoder((b) => batches.push(b)), batches };
}

const sample = (tags: Record<string, string>, value = 1) => ({ metric: 'm', time: 1, value, tags });

describe('SampleBatchEncoder', () => {
  it('sends a tag set once and refers to it by id, whatever the key order', () => {
    const { enc, batches } = encoder();
    enc.add(sample({ a: '1', b: '2' }));
    enc.add(sample({ b: '2', a: '1' }));
    enc.add(sample({ a: '1', b: '3' }));
    enc.flush();
    expect(batches).toHaveLength(1);
    expect(batches[0].tagSets).toEqual([
      [0, { a: '1', b: '2' }],
      [1, { a: '1', b: '3' }],
    ]);
    expect([...batches[0].tagIds]).toEqual([0, 0, 1]);
  });

  it('a mutable tags object changed between calls gets the id of its new content', () => {
    const { enc, batches } = encoder();
    const tags: Record<string, string> = { a: '1' };
    enc.add(sample(tags));
    tags.a = '2';
    enc.add(sample(tags));
    enc.flush();
    expect(batches[0].tagSets).toEqual([
      [0, { a: '1' }],
      [1, { a: '2' }],
    ]);
    expect([...batches[0].tagIds]).toEqual([0, 1]);
  });

  it('a frozen tags object keeps its id across calls and flushes; equal content elsewhere maps to the same id', () => {
    const { enc, batches } = encoder();
    const frozen = Object.freeze({ scenario: 'load', group: '' });
    enc.addAll([sample(frozen), sample(frozen)]);
    enc.flush();
    enc.add(sample(frozen));
    enc.add(sample({ group: '', scenario: 'load' }));
    enc.flush();
    expect(batches[0].tagSets).toEqual([[0, { scenario: 'load', group: '' }]]);
    expect(batches[1].tagSets).toBeUndefined();
    expect([...batches[1].tagIds]).toEqual([0, 0]);
  });

  it('empty metadata is no metadata; metadata sets are interned like tags', () => {
    const { enc, batches } = encoder();
    enc.add({ ...sample({}), metadata: {} });
    enc.add({ ...sample({}), metadata: { vu: '1' } });
    enc.add({ ...sample({}), metadata: { vu: '1' } });
    enc.flush();
    expect([...batches[0].metaIds]).toEqual([-1, 0, 0]);
    expect(batches[0].metas).toEqual([[0, { vu: '1' }]]);
  });
});
