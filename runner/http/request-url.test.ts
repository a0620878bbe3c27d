// biome-ignore-all lint/suspicious/noTemplateCurlyInString: k6 names templated URLs with a literal ${}.
import { describe, expect, it } from 'vitest';
import { type HttpURL, InvalidUrlError, maskCredentials, resolveTarget, urlTemplate } from './request-url';

function tpl(strings: TemplateStringsArray, ...args: unknown[]): HttpURL {
  return urlTemplate(strings, args);
}

describe('request targets', () => {
  it('http.url templates keep the real URL and name interpolations ${}', () => {
    const id = 7;
    const u = tpl`http://x/posts/${id}?q=${'a'}`;
    expect(u.url).toBe('http://x/posts/7?q=a');
    expect(u.name).toBe('http://x/posts/${}?q=${}');
    expect(resolveTarget(u)).toMatchObject({
      tagUrl: 'http://x/posts/7?q=a',
      tagName: 'http://x/posts/${}?q=${}',
    });
  });

  it('masks credentials in tags and turns them into Basic auth', () => {
    const t = resolveTarget('http://bob:s3cret@127.0.0.1:8080/a');
    expect(t.tagUrl).toBe('http://****:****@127.0.0.1:8080/a');
    expect(t.tagName).toBe('http://****:****@127.0.0.1:8080/a');
    expect(t.url.href).toBe('http://127.0.0.1:8080/a');
    expect(t.basicAuth).toBe(`Basic ${Buffer.from('bob:s3cret').toString('base64')}`);
    expect(maskCredentials('https://u@h/')).toBe('https://****:****@h/');
  });

  it('keeps the URL text as written for tags', () => {
    expect(resolveTarget('http://127.0.0.1:1/x?b=1&a=2').tagUrl).toBe('http://127.0.0.1:1/x?b=1&a=2');
  });

  it('rejects relative and non-http URLs', () => {
    expect(() => resolveTarget('/relative')).toThrow(InvalidUrlError);
    expect(() => resolveTarget('ftp://h/')).toThrow('unsupported protocol scheme "ftp:"');
  });
});
