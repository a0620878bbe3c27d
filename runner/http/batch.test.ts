import { describe, expect, it } from 'vitest';
import { batchItem } from './batch';
import { HttpURL } from './request-url';

describe('http.batch entries', () => {
  it('a URL string or http.url is a GET', () => {
    expect(batchItem('http://h/', '0')).toEqual({
      method: 'GET',
      url: 'http://h/',
      body: null,
      params: null,
    });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: k6 names templated URLs with a literal ${}.
    const u = new HttpURL('http://h/1', 'http://h/${}');
    expect(batchItem(u, '0').url).toBe(u);
  });

  it('arrays are [method, url, body, params]', () => {
    expect(batchItem(['POST', 'http://h/', 'b', { tags: { a: '1' } }], '1')).toEqual({
      method: 'POST',
      url: 'http://h/',
      body: 'b',
      params: { tags: { a: '1' } },
    });
    expect(() => batchItem(['GET'], '2')).toThrow(
      'batch request 2: an array entry needs at least [method, url]',
    );
  });

  it('objects upper-case the method, default to GET and drop bodies of GET/HEAD', () => {
    expect(batchItem({ method: 'post', url: 'http://h/', body: 'x' }, 'a')).toMatchObject({
      method: 'POST',
      body: 'x',
    });
    expect(batchItem({ url: 'http://h/', body: 'x' }, 'b')).toMatchObject({ method: 'GET', body: null });
    expect(() => batchItem({ method: 'GET' }, 'c')).toThrow('batch request c: an object entry needs a url');
    expect(() => batchItem(42, 'd')).toThrow('expected a URL string, an array or an object');
  });
});
