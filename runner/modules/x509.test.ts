import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createX509Module } from './x509';

// The tests' own self-signed certificate for localhost (tests/runner/http/fixtures).
const PEM = readFileSync(
  new URL('../../tests/runner/http/fixtures/localhost-cert.pem', import.meta.url),
  'utf8',
);
const x509 = createX509Module() as Record<string, (pem: unknown) => Record<string, unknown>>;

describe('k6/crypto/x509', () => {
  it("parses a PEM certificate into k6's fields", () => {
    const cert = x509.parse(PEM);
    expect(cert.subject).toMatchObject({
      commonName: 'localhost',
      names: [{ type: '2.5.4.3', value: 'localhost' }],
    });
    expect(cert.issuer).toMatchObject({ commonName: 'localhost' });
    expect(cert.notBefore).toBe('2026-11-30T18:13:18Z');
    expect(cert.notAfter).toBe('2126-11-06T18:13:18Z');
    expect(cert.altNames).toEqual(['localhost', '127.0.0.1']);
    expect(cert.signatureAlgorithm).toBe('SHA256-RSA');
    expect((cert.fingerPrint as number[]).length).toBe(20);
    expect((cert.publicKey as { algorithm: string }).algorithm).toBe('RSA');
    expect(x509.getAltNames(new TextEncoder().encode(PEM).buffer)).toEqual(['localhost', '127.0.0.1']);
  });

  it("refuses what is not a certificate, with k6's message", () => {
    expect(() => x509.parse('hello')).toThrow('failed to decode certificate PEM file');
  });
});
