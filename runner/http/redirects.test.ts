import { describe, expect, it } from 'vitest';
import { redirectHop } from './redirects';

const from = new URL('http://a.test/x/y');

describe('redirect hops', () => {
  it.each([
    [301, 'POST', 'GET', false],
    [302, 'PUT', 'GET', false],
    [303, 'DELETE', 'GET', false],
    [302, 'HEAD', 'HEAD', false],
    [307, 'POST', 'POST', true],
    [308, 'PATCH', 'PATCH', true],
  ])('%i after %s -> %s (body resent: %s)', (status, method, next, resend) => {
    expect(redirectHop(status, method, '/z', from)).toMatchObject({
      method: next,
      resendBody: resend,
      crossHost: false,
    });
  });

  it('resolves relative Locations and notices another host', () => {
    expect(redirectHop(302, 'GET', 'z', from)?.url.href).toBe('http://a.test/x/z');
    expect(redirectHop(302, 'GET', 'https://b.test/', from)).toMatchObject({ crossHost: true });
    expect(redirectHop(302, 'GET', 'http://a.test:81/', from)).toMatchObject({ crossHost: true });
  });

  it('is not a hop: other statuses, no Location, non-http schemes, unparsable Locations', () => {
    expect(redirectHop(200, 'GET', '/z', from)).toBeUndefined();
    expect(redirectHop(300, 'GET', '/z', from)).toBeUndefined();
    expect(redirectHop(302, 'GET', undefined, from)).toBeUndefined();
    expect(redirectHop(302, 'GET', 'ftp://a.test/', from)).toBeUndefined();
    expect(redirectHop(302, 'GET', 'http://[bad', from)).toBeUndefined();
  });
});
