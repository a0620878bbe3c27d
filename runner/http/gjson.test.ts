import { describe, expect, it } from 'vitest';
import { get, globMatch, splitPath, UnsupportedSelectorError } from './gjson';

const doc = {
  name: { first: 'Tom', last: 'Anderson' },
  age: 37,
  children: ['Sara', 'Alex', 'Jack'],
  'fav.movie': 'Deer Hunter',
  friends: [
    { first: 'Dale', last: 'Murphy', age: 44, nets: ['ig', 'fb', 'tw'] },
    { first: 'Roger', last: 'Craig', age: 68, nets: ['fb', 'tw'] },
    { first: 'Jane', last: 'Murphy', age: 47, nets: ['ig', 'tw'] },
  ],
};

describe('GJSON subset for res.json(selector)', () => {
  it.each([
    ['name.last', 'Anderson'],
    ['age', 37],
    ['children', ['Sara', 'Alex', 'Jack']],
    ['children.#', 3],
    ['children.1', 'Alex'],
    ['child*.2', 'Jack'],
    ['c?ildren.0', 'Sara'],
    ['fav\\.movie', 'Deer Hunter'],
    ['friends.#.first', ['Dale', 'Roger', 'Jane']],
    ['friends.1.last', 'Craig'],
    ['friends.#(last=="Murphy").first', 'Dale'],
    ['friends.#(last=="Murphy")#.first', ['Dale', 'Jane']],
    ['friends.#(age>45)#.last', ['Craig', 'Murphy']],
    ['friends.#(first%"D*").last', 'Murphy'],
    ['friends.#(first!%"D*").last', 'Craig'],
    ['friends.#(nets.#(=="fb"))#.first', ['Dale', 'Roger']],
    ['children.#(=="Alex")', 'Alex'],
  ])('%s', (path, expected) => {
    expect(get(doc, path)).toEqual(expected);
  });

  it('returns undefined when nothing matches', () => {
    expect(get(doc, 'name.middle')).toBeUndefined();
    expect(get(doc, 'children.9')).toBeUndefined();
    expect(get(doc, 'age.x')).toBeUndefined();
    expect(get(doc, 'friends.#(age>100).first')).toBeUndefined();
  });

  it('throws a clear error for syntax outside the subset', () => {
    expect(() => get(doc, 'children|@reverse')).toThrow(UnsupportedSelectorError);
    expect(() => get(doc, 'children.@reverse')).toThrow('not supported');
  });

  it('splits paths on unescaped dots, keeping queries whole', () => {
    expect(splitPath('a.#(b.c=="x.y").d')).toEqual(['a', '#(b.c=="x.y")', 'd']);
    expect(splitPath('a\\.b.c')).toEqual(['a\\.b', 'c']);
    expect(globMatch('a*c', 'abbbc')).toBe(true);
    expect(globMatch('a?c', 'abbc')).toBe(false);
  });
});
