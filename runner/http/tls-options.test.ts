import { describe, expect, it } from 'vitest';
import { tlsClientOptions } from './tls-options';

function parse(version: unknown, suites?: unknown) {
  const problems: string[] = [];
  return { options: tlsClientOptions(version, suites, problems), problems };
}

describe('tlsVersion and tlsCipherSuites', () => {
  it('a version string pins both ends; an object sets either', () => {
    expect(parse('tls1.2').options).toEqual({ minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' });
    expect(parse({ min: 'tls1.1' }).options).toEqual({ minVersion: 'TLSv1.1' });
    expect(parse({ min: 'tls1.2', max: 'tls1.3' }).options).toEqual({
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.3',
    });
    expect(parse(undefined).options).toEqual({});
  });

  it("maps k6's suite names to OpenSSL's and keeps TLS 1.3's suites, which Go does not let a script narrow", () => {
    expect(
      parse(undefined, ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256']).options,
    ).toEqual({
      ciphers:
        'ECDHE-RSA-AES128-GCM-SHA256:TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256',
    });
  });

  it('names what it does not know, as k6 does at load', () => {
    expect(parse('ssl3.0').problems).toEqual([
      "tlsVersion: unknown TLS version 'ssl3.0' (use tls1.0, tls1.1, tls1.2, tls1.3)",
    ]);
    expect(parse({ min: 'tls1.2', low: 1 }).problems).toEqual([
      'tlsVersion: unknown field "low" (use min and max)',
    ]);
    expect(parse(undefined, ['TLS_FOO']).problems).toEqual([
      "tlsCipherSuites: unknown cipher suite 'TLS_FOO'",
    ]);
  });
});
