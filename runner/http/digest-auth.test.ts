import { describe, expect, it } from 'vitest';
import { type DigestChallenge, digestAuthorization, parseDigestChallenge } from './digest-auth';

function challengeOf(header: string): DigestChallenge {
  const c = parseDigestChallenge(header);
  if (!c) throw new Error(`not a digest challenge: ${header}`);
  return c;
}

function responseOf(header: string | undefined): string | undefined {
  return header === undefined ? undefined : /response="([0-9a-f]+)"/.exec(header)?.[1];
}

describe('HTTP digest auth', () => {
  it('answers RFC 2617 §3.5 (MD5, qop=auth) with its published response', () => {
    const challenge = challengeOf(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    expect(challenge).toMatchObject({
      realm: 'testrealm@host.com',
      qop: ['auth', 'auth-int'],
      algorithm: 'MD5',
    });
    const header = digestAuthorization(challenge, {
      method: 'GET',
      uri: '/dir/index.html',
      user: 'Mufasa',
      password: 'Circle Of Life',
      body: null,
      cnonce: '0a4f113b',
    });
    expect(responseOf(header)).toBe('6629fae49393a05397450978507c4ef1');
    expect(header).toContain('qop=auth, nc=00000001, cnonce="0a4f113b"');
    expect(header).toContain('opaque="5ccc069c403ebaf9f0171e9517f40e41"');
    expect(header).toMatch(/^Digest username="Mufasa", realm="testrealm@host.com"/);
  });

  it.each([
    ['SHA-256', '753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1'],
    ['MD5', '8ca523f5e9506fed4657c9700eebdbec'],
  ])('answers RFC 7616 §3.9.1 with %s', (algorithm, expected) => {
    const challenge = challengeOf(
      `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=${algorithm}, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`,
    );
    const header = digestAuthorization(challenge, {
      method: 'GET',
      uri: '/dir/index.html',
      user: 'Mufasa',
      password: 'Circle of Life',
      body: null,
      cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
    });
    expect(responseOf(header)).toBe(expected);
  });

  it('refuses what it cannot answer and what is not a Digest challenge', () => {
    expect(parseDigestChallenge('Basic realm="x"')).toBeUndefined();
    const odd = challengeOf('Digest realm="x", nonce="n", algorithm=SHA-1');
    expect(digestAuthorization(odd, { method: 'GET', uri: '/', user: 'u', password: 'p', body: null })).toBe(
      undefined,
    );
  });
});
