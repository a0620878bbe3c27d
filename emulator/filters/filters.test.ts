// Filter parsing (400s naming the key), one-row semantics, and bitsets from postings + row checks agreeing.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import { AttributeIndex } from '../index/attribute-index';
import type { AttributeSpec } from '../wire/schema';
import { parseTypeName } from '../wire/schema';
import type { StoredValue } from '../wire/values';
import { filterBitset } from './candidates';
import { compileFilter, globToRegExp } from './evaluate';
import { type FilterSchema, parseFilter } from './parse';

const spec = (type: string, filterable = true): AttributeSpec => ({
  type:
    parseTypeName(type) ??
    (() => {
      throw new Error(type);
    })(),
  filterable,
  declared: true,
});

const SCHEMA: FilterSchema = {
  idType: 'uint',
  attribute: (name) =>
    ({
      cat: spec('string'),
      price: spec('float'),
      tags: spec('[]string'),
      when: spec('datetime'),
      body: spec('string', false),
      vector: spec('[2]f32'),
    })[name],
};

const ROWS: Record<string, StoredValue>[] = [
  { cat: 'a', price: 10, tags: ['x', 'y'], when: Date.parse('2024-01-01') },
  { cat: 'b', price: 5, tags: ['y'] },
  { cat: 'a', price: null, tags: [] },
  { cat: 'Apple', price: 7.5, tags: ['z'] },
];
const source = {
  id: (row: number) => row + 100,
  value: (attr: string, row: number) => ROWS[row][attr] ?? null,
};

function matches(filter: unknown): number[] {
  const predicate = compileFilter(parseFilter(filter, SCHEMA, 'filters'), source);
  return ROWS.map((_, row) => row).filter((row) => predicate(row));
}

function error(filter: unknown): string {
  try {
    parseFilter(filter, SCHEMA, 'filters');
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    return (e as Error).message;
  }
  throw new Error('expected a 400');
}

describe('filter semantics', () => {
  it.each([
    [
      ['cat', 'Eq', 'a'],
      [0, 2],
    ],
    [
      ['cat', 'NotEq', 'a'],
      [1, 3],
    ],
    [['price', 'Eq', null], [2]],
    [
      ['price', 'NotEq', null],
      [0, 1, 3],
    ],
    [
      ['cat', 'In', ['b', 'Apple']],
      [1, 3],
    ],
    [
      ['cat', 'NotIn', ['a']],
      [1, 3],
    ],
    [
      ['price', 'Lt', 7.5],
      [1, 2],
    ], // Lt matches null
    [
      ['price', 'Lte', 7.5],
      [1, 2, 3],
    ],
    [
      ['price', 'Gt', 5],
      [0, 3],
    ], // Gt does not
    [
      ['price', 'Gte', 5],
      [0, 1, 3],
    ],
    [
      ['tags', 'Contains', 'y'],
      [0, 1],
    ],
    [
      ['tags', 'NotContains', 'y'],
      [2, 3],
    ],
    [
      ['tags', 'ContainsAny', ['x', 'z']],
      [0, 3],
    ],
    [
      ['tags', 'NotContainsAny', ['x', 'z']],
      [1, 2],
    ],
    [['cat', 'Glob', 'A*'], [3]],
    [
      ['cat', 'IGlob', 'a*'],
      [0, 2, 3],
    ],
    [['cat', 'NotGlob', '?'], [3]],
    [['cat', 'Regex', '^A.+e$'], [3]],
    [['when', 'Gte', '2023-12-31T00:00:00Z'], [0]],
    [
      ['id', 'In', [101, 103]],
      [1, 3],
    ],
    [
      ['id', 'Gte', 102],
      [2, 3],
    ],
    [
      ['never_written', 'Eq', null],
      [0, 1, 2, 3],
    ],
    [
      [
        'And',
        [
          ['cat', 'Eq', 'a'],
          ['price', 'Gt', 1],
        ],
      ],
      [0],
    ],
    [
      [
        'Or',
        [
          ['cat', 'Eq', 'b'],
          ['tags', 'Contains', 'z'],
        ],
      ],
      [1, 3],
    ],
    [
      ['Not', ['cat', 'Eq', 'a']],
      [1, 3],
    ],
    [
      ['And', []],
      [0, 1, 2, 3],
    ],
  ])('%j matches rows %j', (filter, rows) => {
    expect(matches(filter)).toEqual(rows);
  });

  it('globs are anchored and support classes', () => {
    expect(globToRegExp('a[!b]?', false).test('acx')).toBe(true);
    expect(globToRegExp('a[!b]?', false).test('abx')).toBe(false);
    expect(globToRegExp('a.b', false).test('axb')).toBe(false);
  });
});

describe('filter errors name the key and the problem', () => {
  it.each([
    [['cat', 'Like', 'a'], 'filter error in key `cat`: unknown operator "Like"'],
    [
      ['tags', 'ContainsAny', [1]],
      'filter error in key `tags`: type mismatch, ContainsAny expects []string, but got [1]',
    ],
    [
      ['price', 'Lt', 'cheap'],
      'filter error in key `price`: type mismatch, Lt expects float, but got "cheap"',
    ],
    [['cat', 'In', 'a'], 'filter error in key `cat`: type mismatch, In expects []string, but got "a"'],
    [['body', 'Eq', 'x'], 'filter error in key `body`: attribute is not filterable'],
    [['vector', 'Eq', 1], 'filter error in key `vector`: vector attributes cannot be filtered'],
    [
      ['cat', 'ContainsAllTokens', 'a'],
      'filter error in key `cat`: ContainsAllTokens needs full-text search on the attribute',
    ],
    [['price', 'Regex', 'a'], 'filter error in key `price`: Regex needs a string attribute, not float'],
    [
      ['cat', 'Eq', { $ref_new: 'cat' }],
      'filter error in key `cat`: $ref_new is only allowed in write conditions',
    ],
    [['And', ['cat', 'Eq', 'a']], 'filters.And[0]: expected a filter'],
    ['cat', 'filters: expected a filter'],
  ])('%j', (filter, message) => {
    expect(error(filter)).toContain(message);
  });
});

describe('filter bitsets', () => {
  it('postings for indexed rows and row checks for the tail give the same rows as row checks alone', () => {
    const index = new AttributeIndex();
    const attributes = new Map<string, StoredValue[]>([
      ['cat', ROWS.map((r) => r.cat ?? null)],
      ['tags', ROWS.map((r) => r.tags ?? null)],
      ['price', ROWS.map((r) => r.price ?? null)],
    ]);
    index.addRows(2, { attributes }, ['cat', 'tags', 'price']);
    for (const filter of [
      ['cat', 'Eq', 'a'],
      ['cat', 'NotIn', ['a']],
      ['tags', 'ContainsAny', ['y', 'z']],
      ['Not', ['tags', 'Contains', 'y']],
      [
        'And',
        [
          ['cat', 'In', ['a', 'Apple']],
          ['price', 'Lt', 8],
        ],
      ],
    ]) {
      const bits = filterBitset(parseFilter(filter, SCHEMA, 'filters'), {
        rows: 4,
        indexedRows: 2,
        dead: new Uint32Array(1),
        source,
        index,
      });
      const fromBits = [0, 1, 2, 3].filter((row) => (bits[0] & (1 << row)) !== 0);
      expect(fromBits, JSON.stringify(filter)).toEqual(matches(filter));
    }
  });
});
