import { describe, expect, it } from 'vitest';
import { CookieJar, responseCookies } from './cookie-jar';

describe('cookie jar', () => {
  it('stores Set-Cookie values and sends matching cookies by domain and path', () => {
    const jar = new CookieJar();
    jar.storeFrom(['a=1; Path=/', 'b=2; Path=/admin', 'bad'], 'http://127.0.0.1:8080/login');
    expect(jar.cookieHeader('http://127.0.0.1:8080/')).toBe('a=1');
    expect(jar.cookiesForURL('http://127.0.0.1:8080/admin/x')).toEqual({ b: ['2'], a: ['1'] });
    expect(jar.cookieHeader('http://localhost:8080/')).toBe('');
  });

  it('set, delete, clear and reset', () => {
    const jar = new CookieJar();
    jar.set('http://h.test/', 'x', '1');
    jar.set('http://h.test/', 'y', '2', { path: '/', secure: false });
    expect(jar.cookiesForURL('http://h.test/')).toEqual({ x: ['1'], y: ['2'] });
    jar.delete('http://h.test/', 'x');
    expect(jar.cookiesForURL('http://h.test/')).toEqual({ y: ['2'] });
    jar.clear('http://h.test/');
    expect(jar.cookiesForURL('http://h.test/')).toEqual({});
    jar.set('http://h.test/', 'z', '3');
    jar.reset();
    expect(jar.cookieHeader('http://h.test/')).toBe('');
  });

  it('jar.set() keeps a Secure cookie given for an http: URL and sends it only over https:', () => {
    const jar = new CookieJar();
    jar.set('http://h.test', 'my_cookie', 'hello', { domain: 'h.test', path: '/api', secure: true });
    expect(jar.cookiesForURL('https://h.test/api/x')).toEqual({ my_cookie: ['hello'] });
    expect(jar.cookiesForURL('http://h.test/api/x')).toEqual({});
  });

  it('expired cookies are not sent', () => {
    const jar = new CookieJar();
    jar.storeFrom(['old=1; Max-Age=0', 'new=2'], 'http://h.test/');
    expect(jar.cookieHeader('http://h.test/')).toBe('new=2');
  });

  it('parses res.cookies with k6 field names', () => {
    const cookies = responseCookies(
      ['sid=abc; Path=/; HttpOnly; Secure; Max-Age=60', 'sid=def; Domain=h.test'],
      new URL('http://h.test/x'),
    );
    expect(cookies.sid).toEqual([
      {
        name: 'sid',
        value: 'abc',
        domain: 'h.test',
        path: '/',
        httpOnly: true,
        secure: true,
        maxAge: 60,
        expires: 0,
      },
      {
        name: 'sid',
        value: 'def',
        domain: 'h.test',
        path: '/',
        httpOnly: false,
        secure: false,
        maxAge: 0,
        expires: 0,
      },
    ]);
  });
});
